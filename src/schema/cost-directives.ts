/**
 * IBM's cost directives (https://ibm.github.io/graphql-specs/cost-spec.html),
 * printed into schema.graphql from the declarations the estimate walks
 * (field-reads.ts), so that standard cost tooling sees what a field costs in
 * upstream calls: `@cost(weight:)` is the calls a field makes per object it
 * is selected on, `@listSize` the length of the list it returns (assumed, or
 * set by `limit`, `first`/`last`).
 *
 * IBM's directives weigh each field alone, so two things of the estimate
 * come out larger. An object's record is loaded once however many of its
 * fields need it, and not at all when its parent holds it: a field is
 * weighed the reads that load what it needs beyond the level its type names
 * in `directivesAssume`. And a connection reads one page more after a
 * cursor and one more counting from the end: `after`, `before` and `last`
 * weigh as arguments, exact when one of them is given. Where a parent holds
 * less than that level (an artist linked from a song, a song named by a
 * milestone), a field's weight is less than what the estimate counts.
 */
import {
  DirectiveLocation,
  GraphQLBoolean,
  GraphQLDirective,
  type GraphQLField,
  GraphQLInt,
  GraphQLList,
  GraphQLNonNull,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLString,
  getNamedType,
  isCompositeType,
  isObjectType,
  Kind,
  parse,
  printSchema,
} from 'graphql';
import { DEFAULT_CONNECTION_SIZE } from './connections.js';
import { type FieldReads, fieldReadsOf, type Knows, objectReadsOf } from './field-reads.js';

const strings = new GraphQLList(new GraphQLNonNull(GraphQLString));

export const costDirective = new GraphQLDirective({
  name: 'cost',
  description:
    'What using a field, argument or type costs (IBM GraphQL Cost Directives): here, upstream calls.',
  args: {
    weight: {
      type: new GraphQLNonNull(GraphQLString),
      description: 'A serialized Float: the cost added for every (possible) appearance.',
    },
  },
  locations: [
    DirectiveLocation.ARGUMENT_DEFINITION,
    DirectiveLocation.ENUM,
    DirectiveLocation.FIELD_DEFINITION,
    DirectiveLocation.INPUT_FIELD_DEFINITION,
    DirectiveLocation.OBJECT,
    DirectiveLocation.SCALAR,
  ],
});

export const listSizeDirective = new GraphQLDirective({
  name: 'listSize',
  description: 'How long the list a field returns can be (IBM GraphQL Cost Directives).',
  args: {
    assumedSize: { type: GraphQLInt, description: 'Its length when no slicing argument says.' },
    slicingArguments: { type: strings, description: 'Arguments whose value is its length.' },
    sizedFields: {
      type: strings,
      description: 'Fields of the returned object whose lists have that length instead.',
    },
    requireOneSlicingArgument: {
      type: GraphQLBoolean,
      defaultValue: true,
      description: 'Whether exactly one slicing argument must be given.',
    },
  },
  locations: [DirectiveLocation.FIELD_DEFINITION],
});

/** Arguments of a connection that read one more upstream page each (`pagesRead`); `last` two. */
const PAGE_ARGUMENT_WEIGHTS: Readonly<Record<string, number>> = { after: 1, before: 1, last: 2 };

export interface ListSize {
  readonly assumedSize?: number;
  readonly slicingArguments?: readonly string[];
  readonly sizedFields?: readonly string[];
  readonly requireOneSlicingArgument?: boolean;
}

/** What IBM's directives say of one field: its weight, its arguments' weights, its list's size. */
export interface FieldCost {
  readonly weight: number;
  readonly argumentWeights: Readonly<Record<string, number>>;
  readonly listSize?: ListSize;
}

/** Reads between the level the directives assume of `type` and the level `needs`, as `recordLoads` counts them. */
function levelReads(type: GraphQLObjectType, needs: Knows | undefined): number {
  const reads = objectReadsOf(type);
  if (reads === undefined || needs === undefined) return 0;
  const level = (holds: Knows) => reads.levels.findIndex((l) => l.holds === holds);
  const needed = level(needs) < 0 ? reads.levels.length - 1 : level(needs);
  const loads = reads.levels
    .slice(level(reads.directivesAssume) + 1, needed + 1)
    .map((l) => l.loadedBy)
    .filter((read) => read !== undefined);
  return new Set(loads).size;
}

/** Calls the field makes itself whatever its arguments; a list argument's length counts as one. */
function ownWeight(reads: FieldReads): number {
  if (typeof reads.calls === 'number') return reads.calls;
  if (reads.calls !== undefined) return 1;
  return reads.read !== undefined || reads.bySlug !== undefined || reads.pages !== undefined
    ? 1
    : 0;
}

function listSizeOf(reads: FieldReads): ListSize | undefined {
  if (reads.connection !== undefined) {
    return {
      assumedSize: DEFAULT_CONNECTION_SIZE,
      slicingArguments: ['first', 'last'],
      sizedFields: ['edges', 'nodes'],
      requireOneSlicingArgument: false,
    };
  }
  if (typeof reads.size === 'number') return { assumedSize: reads.size };
  if (reads.size !== undefined && 'slicedBy' in reads.size) {
    const { slicedBy, assumedSize } = reads.size;
    return { assumedSize, slicingArguments: [slicedBy], requireOneSlicingArgument: false };
  }
  const children = Object.entries(reads.childLists ?? {});
  const [first] = children;
  if (first === undefined) return undefined;
  const [, { slicedBy, assumedSize }] = first;
  if (children.some(([, size]) => size.slicedBy !== slicedBy || size.assumedSize !== assumedSize))
    throw new Error('IBM @listSize sizes the lists of one field by one argument and one size');
  return {
    assumedSize,
    slicingArguments: [slicedBy],
    sizedFields: children.map(([name]) => name),
    requireOneSlicingArgument: false,
  };
}

/** The directives of a field of an object type, from its declaration. */
export function fieldCost(
  type: GraphQLObjectType,
  field: GraphQLField<unknown, unknown>,
): FieldCost {
  const reads = fieldReadsOf(field);
  if (reads === undefined) return { weight: 0, argumentWeights: {} };
  const argumentWeights: Record<string, number> = {};
  if (reads.pages !== undefined) {
    for (const { name } of field.args) {
      const weight = PAGE_ARGUMENT_WEIGHTS[name];
      if (weight !== undefined) argumentWeights[name] = weight;
    }
  }
  const listSize = listSizeOf(reads);
  return {
    weight: ownWeight(reads) + levelReads(type, reads.needs),
    argumentWeights,
    ...(listSize === undefined ? {} : { listSize }),
  };
}

function costText(weight: number): string {
  return `@cost(weight: "${weight.toFixed(1)}")`;
}

function listSizeText(size: ListSize): string {
  const names = (values: readonly string[]) => `[${values.map((v) => `"${v}"`).join(', ')}]`;
  const args = [
    size.assumedSize === undefined ? [] : [`assumedSize: ${size.assumedSize}`],
    size.slicingArguments === undefined
      ? []
      : [`slicingArguments: ${names(size.slicingArguments)}`],
    size.sizedFields === undefined ? [] : [`sizedFields: ${names(size.sizedFields)}`],
    size.requireOneSlicingArgument === undefined
      ? []
      : [`requireOneSlicingArgument: ${size.requireOneSlicingArgument}`],
  ].flat();
  return `@listSize(${args.join(', ')})`;
}

/**
 * The schema as graphql-js prints it, with `@cost` and `@listSize` written
 * after each field and argument they apply to. `@cost` is written where the
 * weight differs from IBM's default (0 for scalars and enums, 1 for objects).
 */
export function printSchemaWithCost(schema: GraphQLSchema): string {
  const printed = printSchema(schema);
  const inserts: { at: number; text: string }[] = [];
  for (const definition of parse(printed).definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION) continue;
    const type = schema.getType(definition.name.value);
    if (!isObjectType(type)) continue;
    for (const node of definition.fields ?? []) {
      const field = type.getFields()[node.name.value];
      if (field === undefined || node.loc === undefined) continue;
      const cost = fieldCost(type, field);
      const directives: string[] = [];
      if (cost.weight !== (isCompositeType(getNamedType(field.type)) ? 1 : 0))
        directives.push(costText(cost.weight));
      if (cost.listSize !== undefined) directives.push(listSizeText(cost.listSize));
      if (directives.length > 0) inserts.push({ at: node.loc.end, text: directives.join(' ') });
      for (const argument of node.arguments ?? []) {
        const weight = cost.argumentWeights[argument.name.value];
        if (weight !== undefined && argument.loc !== undefined)
          inserts.push({ at: argument.loc.end, text: costText(weight) });
      }
    }
  }
  let sdl = printed;
  for (const { at, text } of inserts.sort((a, b) => b.at - a.at))
    sdl = `${sdl.slice(0, at)} ${text}${sdl.slice(at)}`;
  return sdl;
}
