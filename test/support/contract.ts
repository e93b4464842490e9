/**
 * Compares a schema with the public contract: every type, field, argument,
 * enum value and interface of the contract must exist with the same type
 * (nullability and list shape included). Returns the differences, empty when
 * the schema honours the contract.
 */
import {
  buildASTSchema,
  type GraphQLNamedType,
  type GraphQLSchema,
  isEnumType,
  isInterfaceType,
  isObjectType,
  parse,
} from 'graphql';

/** The contract describes connection types in a comment; these are the SDL it implies. */
const CONNECTIONS = [
  ['ArtistConnection', 'ArtistEdge', 'Artist', ''],
  ['SongConnection', 'SongEdge', 'Song', ''],
  ['AlbumConnection', 'AlbumEdge', 'Album', ''],
  ['MilestoneConnection', 'MilestoneEdge', 'Milestone', ''],
  ['TierArtistConnection', 'TierArtistEdge', 'Artist', 'crossedAt: Date'],
  ['TierSongConnection', 'TierSongEdge', 'Song', 'crossedAt: Date'],
]
  .map(
    ([connection, edge, node, extra]) => `
type ${connection} { edges: [${edge}!]! nodes: [${node}!]! pageInfo: PageInfo! totalCount: Int! }
type ${edge} { cursor: String! node: ${node}! ${extra} }`,
  )
  .join('\n');

export function contractSchema(contractSdl: string): GraphQLSchema {
  return buildASTSchema(parse(`${contractSdl}\n${CONNECTIONS}`), { assumeValidSDL: true });
}

export function contractDifferences(contract: GraphQLSchema, actual: GraphQLSchema): string[] {
  const problems: string[] = [];
  for (const expected of Object.values(contract.getTypeMap())) {
    if (expected.name.startsWith('__')) continue;
    const found = actual.getType(expected.name);
    if (!found) {
      problems.push(`missing type ${expected.name}`);
      continue;
    }
    problems.push(...typeDifferences(expected, found));
  }
  return problems;
}

function typeDifferences(expected: GraphQLNamedType, found: GraphQLNamedType): string[] {
  const problems: string[] = [];
  if (found.constructor !== expected.constructor)
    return [`${expected.name} is not of the same kind`];
  if (isEnumType(expected) && isEnumType(found)) {
    for (const value of expected.getValues()) {
      if (!found.getValue(value.name))
        problems.push(`missing enum value ${expected.name}.${value.name}`);
    }
  }
  if (
    (isObjectType(expected) || isInterfaceType(expected)) &&
    (isObjectType(found) || isInterfaceType(found))
  ) {
    const foundFields = found.getFields();
    for (const field of Object.values(expected.getFields())) {
      const actualField = foundFields[field.name];
      const where = `${expected.name}.${field.name}`;
      if (!actualField) {
        problems.push(`missing field ${where}`);
        continue;
      }
      if (String(actualField.type) !== String(field.type)) {
        problems.push(
          `${where} is ${String(actualField.type)}, contract says ${String(field.type)}`,
        );
      }
      for (const arg of field.args) {
        const actualArg = actualField.args.find((a) => a.name === arg.name);
        if (!actualArg) problems.push(`missing argument ${where}(${arg.name})`);
        else if (String(actualArg.type) !== String(arg.type)) {
          problems.push(
            `${where}(${arg.name}) is ${String(actualArg.type)}, contract says ${String(arg.type)}`,
          );
        }
      }
      for (const actualArg of actualField.args) {
        const known = field.args.some((a) => a.name === actualArg.name);
        if (!known && String(actualArg.type).endsWith('!'))
          problems.push(`${where} adds required argument ${actualArg.name}`);
      }
    }
    if (isObjectType(expected) && isObjectType(found)) {
      for (const iface of expected.getInterfaces()) {
        if (!found.getInterfaces().some((i) => i.name === iface.name)) {
          problems.push(`${expected.name} does not implement ${iface.name}`);
        }
      }
    }
  }
  return problems;
}
