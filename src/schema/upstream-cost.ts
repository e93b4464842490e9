/**
 * Worst-case upstream calls of an operation, computed from its AST before it
 * runs. It knows what the resolvers of this schema do from what each field
 * declares (its `upstream` option, see `field-reads.ts`): every field that
 * can call the upstream has a cost, counted once per object it is selected
 * on, and multiplied by the sizes of the lists above it (`first`, `limit`,
 * their defaults and maxima).
 *
 * The one non-obvious part is what a parent already knows about an Artist,
 * Song, Album or ChartSummary (`Knows`, levels its type declares): a
 * leaderboard item carries the artist summary, so `name` is free there, but
 * `followers` needs the profile; an artist reached from `song.artist` carries
 * only slug and name. The full record of an object is loaded at most once
 * per object, however many of its fields need it, so that load is counted
 * once per object, not once per field.
 *
 * The estimate is an upper bound: it ignores the request's de-duplication
 * (aliases of one field, one artist reached twice) and the shared cache,
 * which only ever lower the real figure (reported next to it as
 * `extensions.cost.upstreamCalls`).
 */
import {
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';
import {
  type Args,
  childListSizes,
  countOf,
  type FieldReads,
  fieldReadsOf,
  type Knows,
  objectReadsOf,
  ownCalls,
  type Read,
  windowSize,
} from './field-reads.js';

/**
 * Upstream calls to load what an object's selected fields need beyond what
 * its parent holds (its type's `ObjectReads`): one per distinct read between
 * the two levels (an artist's profile; a song's search, then its record).
 * Reads made once per request are added to `shared` instead.
 */
function recordLoads(
  type: GraphQLObjectType,
  knows: Knows,
  fields: readonly FieldNode[],
  shared: Set<Read>,
): number {
  const levels = objectReadsOf(type)?.levels;
  if (knows === 'record' || levels === undefined) return 0;
  const level = (holds: Knows) => levels.findIndex((l) => l.holds === holds);
  // A parent that holds none of the levels gave the least: what every parent gives.
  const held = Math.max(level(knows), 0);
  let needed = held;
  for (const field of fields) {
    const name = field.name.value;
    if (name.startsWith('__')) continue;
    const definition = type.getFields()[name];
    const needs = definition === undefined ? undefined : fieldReadsOf(definition)?.needs;
    // A level the type does not list is more than it lists: the whole record.
    if (needs !== undefined)
      needed = Math.max(needed, level(needs) < 0 ? levels.length - 1 : level(needs));
  }
  const reads = new Set<Read>();
  for (const { loadedBy, oncePerRequest } of levels.slice(held + 1, needed + 1)) {
    if (loadedBy === undefined) continue;
    if (oncePerRequest) shared.add(loadedBy);
    else reads.add(loadedBy);
  }
  return reads.size;
}

/** Every declaration that says something (not `READS_NOTHING`), by type and field: what the estimate knows. */
export function declaredFieldReads(
  schema: GraphQLSchema,
): Readonly<Record<string, Readonly<Record<string, FieldReads>>>> {
  const table: Record<string, Record<string, FieldReads>> = {};
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const reads = fieldReadsOf(field);
      if (reads !== undefined && Object.keys(reads).length > 0) {
        table[type.name] ??= {};
        table[type.name]![field.name] = reads;
      }
    }
  }
  return table;
}

export interface CostEstimate {
  /** Worst-case upstream calls of the operation. */
  readonly upstreamCalls: number;
  /**
   * The variables the estimate read, first read first. Another request of the same operation
   * whose variables agree on these reads exactly the same ones and gets the same estimate.
   */
  readonly variablesRead: readonly string[];
}

/** A variable's value as the estimate sees it: the client's, or the operation's default. */
type Variable = (name: string) => unknown;

interface Walk {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly variable: Variable;
  /** Reads made once per request whoever needs them (the chart list), counted once at the end. */
  readonly shared: Set<Read>;
}

/** Estimates the operation `operationName` of `document` with the client's raw `variables`. */
export function estimateUpstreamCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: unknown,
): CostEstimate {
  const operation = getOperationAST(document, operationName ?? undefined);
  const root = operation == null ? undefined : schema.getRootType(operation.operation);
  if (operation == null || root == null) return { upstreamCalls: 0, variablesRead: [] };

  const variables = new Map<string, unknown>();
  const given =
    typeof rawVariables === 'object' && rawVariables !== null ? (rawVariables as Args) : {};
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    variables.set(
      name,
      name in given
        ? given[name]
        : definition.defaultValue
          ? literalValue(definition.defaultValue, () => undefined)
          : undefined,
    );
  }
  const variablesRead = new Set<string>();
  const variable = (name: string) => {
    variablesRead.add(name);
    return variables.get(name);
  };
  const walk: Walk = { schema, document, variable, shared: new Set() };
  const calls = selectionCost(walk, operation.selectionSet, root, 'record', undefined, undefined);
  return { upstreamCalls: calls + walk.shared.size, variablesRead: [...variablesRead] };
}

/** Cost of one object of `type` with this selection, given what its parent knows. */
function selectionCost(
  walk: Walk,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  knows: Knows,
  connectionOf: { size: number; knows: Knows } | undefined,
  lists: Readonly<Record<string, number>> | undefined,
): number {
  if (isAbstractType(type)) {
    // The most expensive of the types the object may turn out to be.
    return Math.max(
      0,
      ...walk.schema
        .getPossibleTypes(type)
        .map((possible) => selectionCost(walk, selectionSet, possible, knows, connectionOf, lists)),
    );
  }
  if (!isObjectType(type)) return 0;

  const fields = collectFields(walk, selectionSet, type.name);
  let total = recordLoads(type, knows, fields, walk.shared);

  for (const field of fields) {
    const name = field.name.value;
    if (name.startsWith('__')) continue;
    const definition = type.getFields()[name];
    if (definition === undefined) continue;
    const args = argumentsOf(walk, field);
    const reads = fieldReadsOf(definition);
    const own = ownCalls(reads, args);

    // Connection plumbing: `edges`/`nodes` take the page size, `node` what the items carry.
    let size = reads?.size === undefined ? 1 : countOf(reads.size, args);
    let childKnows: Knows = reads?.knows ?? 'record';
    let childConnection: { size: number; knows: Knows } | undefined;
    if (reads?.connection !== undefined) {
      childConnection = { size: windowSize(args), knows: reads.connection };
    } else if (
      connectionOf !== undefined &&
      (reads?.relay === 'edges' || reads?.relay === 'nodes')
    ) {
      size = connectionOf.size;
      childKnows = connectionOf.knows;
      childConnection = reads.relay === 'edges' ? connectionOf : undefined;
    } else if (connectionOf !== undefined && reads?.relay === 'node') {
      childKnows = connectionOf.knows;
    } else if (lists?.[name] !== undefined) {
      size = lists[name];
    } else if (reads?.size === undefined && isList(definition.type)) {
      // A list its field does not size has nothing costly beneath it (checked by a test).
      size = 1;
    }

    const child = field.selectionSet
      ? selectionCost(
          walk,
          field.selectionSet,
          getNamedType(definition.type),
          childKnows,
          childConnection,
          childListSizes(reads, args),
        )
      : 0;
    total += own + size * child;
  }
  return total;
}

function isList(type: GraphQLOutputType): boolean {
  return isListType(isNonNullType(type) ? type.ofType : type);
}

/** The fields selected on an object of `typeName`, fragments merged in (directives ignored: worst case). */
function collectFields(
  walk: Walk,
  selectionSet: SelectionSetNode,
  typeName: string,
  seen = new Set<string>(),
): FieldNode[] {
  const fields: FieldNode[] = [];
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === typeName) return true;
    const conditionType = walk.schema.getType(condition);
    const objectType = walk.schema.getType(typeName);
    return (
      conditionType !== undefined &&
      isAbstractType(conditionType) &&
      isObjectType(objectType) &&
      walk.schema.isSubType(conditionType, objectType)
    );
  };
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      fields.push(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (applies(selection.typeCondition?.name.value)) {
        fields.push(...collectFields(walk, selection.selectionSet, typeName, seen));
      }
    } else {
      const name = selection.name.value;
      if (seen.has(name)) continue; // validation refuses fragment cycles; this keeps the walk finite regardless
      seen.add(name);
      const fragment = walk.document.definitions.find(
        (definition) =>
          definition.kind === Kind.FRAGMENT_DEFINITION && definition.name.value === name,
      );
      if (
        fragment?.kind === Kind.FRAGMENT_DEFINITION &&
        applies(fragment.typeCondition.name.value)
      ) {
        fields.push(...collectFields(walk, fragment.selectionSet, typeName, seen));
      }
    }
  }
  return fields;
}

/**
 * The field's arguments, each read from the operation when the estimate asks for it: so the
 * variables the estimate reads are those that can change it (a list's size, not an artist's slug).
 */
function argumentsOf(walk: Walk, field: FieldNode): Args {
  const args: Record<string, unknown> = {};
  for (const argument of field.arguments ?? [])
    Object.defineProperty(args, argument.name.value, {
      enumerable: true,
      get: () => literalValue(argument.value, walk.variable),
    });
  return args;
}

/** A literal or variable value, as far as sizes need it: numbers, lists, null. */
function literalValue(node: ValueNode, variable: Variable): unknown {
  switch (node.kind) {
    case Kind.VARIABLE:
      return variable(node.name.value);
    case Kind.INT:
    case Kind.FLOAT:
      return Number(node.value);
    case Kind.LIST:
      return node.values.map((value) => literalValue(value, variable));
    case Kind.NULL:
      return null;
    case Kind.STRING:
    case Kind.ENUM:
      return node.value;
    case Kind.BOOLEAN:
      return node.value;
    default:
      return undefined;
  }
}
