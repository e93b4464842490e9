/**
 * Static query analysis as IBM's GraphQL Cost Directives define it (§5.3.2.2
 * Field Cost, §7 @cost, §8 @listSize): what a standard cost tool computes
 * from schema.graphql alone. It knows nothing of the gateway: only the
 * printed directives and the defaults the spec gives (a field returning an
 * object weighs 1, one returning a scalar or enum 0, and so do arguments).
 *
 * A field costs its weight plus the weights of the arguments given (at
 * least 0), once per object it is selected on; what is selected beneath a
 * list counts once per item, the length from `@listSize` (the largest
 * slicing argument given, else `assumedSize`), applied to the `sizedFields`
 * of the returned object when it names them. A list with no size and a
 * costly selection beneath is unbounded (Infinity). An abstract type costs
 * as much as the costliest of its object types.
 */
import {
  type ConstDirectiveNode,
  type DocumentNode,
  type FieldNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isAbstractType,
  isCompositeType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type SelectionSetNode,
  valueFromASTUntyped,
} from 'graphql';

type Variables = Readonly<Record<string, unknown>>;

interface ListSize {
  readonly assumedSize?: number;
  readonly slicingArguments: readonly string[];
  readonly sizedFields: readonly string[];
}

function directive(
  node: { readonly directives?: readonly ConstDirectiveNode[] } | null | undefined,
  name: string,
): Record<string, unknown> | undefined {
  const found = node?.directives?.find((d) => d.name.value === name);
  if (found === undefined) return undefined;
  return Object.fromEntries(
    (found.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]),
  );
}

function weightOf(
  node: { readonly directives?: readonly ConstDirectiveNode[] } | null | undefined,
): number | undefined {
  const cost = directive(node, 'cost');
  return cost === undefined ? undefined : Number.parseFloat(String(cost.weight));
}

function listSizeOf(field: GraphQLField<unknown, unknown>): ListSize | undefined {
  const size = directive(field.astNode, 'listSize');
  if (size === undefined) return undefined;
  return {
    ...(typeof size.assumedSize === 'number' ? { assumedSize: size.assumedSize } : {}),
    slicingArguments: (size.slicingArguments as string[] | undefined) ?? [],
    sizedFields: (size.sizedFields as string[] | undefined) ?? [],
  };
}

function isList(field: GraphQLField<unknown, unknown>): boolean {
  return isListType(isNonNullType(field.type) ? field.type.ofType : field.type);
}

/** The list's length for this selection: the largest slicing argument given, else the assumed size. */
function lengthOf(
  size: ListSize | undefined,
  definition: GraphQLField<unknown, unknown>,
  field: FieldNode,
  variables: Variables,
): number {
  if (size === undefined) return Number.POSITIVE_INFINITY;
  const given = (field.arguments ?? [])
    .filter((a) => size.slicingArguments.includes(a.name.value))
    .map((a) => valueFromASTUntyped(a.value, variables))
    .filter((value): value is number => typeof value === 'number');
  if (given.length > 0) return Math.max(...given);
  // A slicing argument's default counts as given (§8.2).
  const defaults = definition.args
    .filter((a) => size.slicingArguments.includes(a.name) && typeof a.defaultValue === 'number')
    .map((a) => a.defaultValue as number);
  if (defaults.length > 0) return Math.max(...defaults);
  return size.assumedSize ?? Number.POSITIVE_INFINITY;
}

interface Walk {
  readonly schema: GraphQLSchema;
  readonly document: DocumentNode;
  readonly variables: Variables;
}

function fieldsOn(walk: Walk, selectionSet: SelectionSetNode, typeName: string): FieldNode[] {
  const applies = (condition: string | undefined) => {
    if (condition === undefined || condition === typeName) return true;
    const abstract = walk.schema.getType(condition);
    const object = walk.schema.getType(typeName);
    return (
      isAbstractType(abstract) && isObjectType(object) && walk.schema.isSubType(abstract, object)
    );
  };
  return selectionSet.selections.flatMap((selection): FieldNode[] => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT)
      return applies(selection.typeCondition?.name.value)
        ? fieldsOn(walk, selection.selectionSet, typeName)
        : [];
    const fragment = walk.document.definitions.find(
      (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === selection.name.value,
    );
    return fragment?.kind === Kind.FRAGMENT_DEFINITION && applies(fragment.typeCondition.name.value)
      ? fieldsOn(walk, fragment.selectionSet, typeName)
      : [];
  });
}

/** Field cost of one object of `type` with this selection; `sized` lengths for the fields a parent sizes. */
function selectionCost(
  walk: Walk,
  selectionSet: SelectionSetNode,
  type: GraphQLNamedType,
  sized: ReadonlyMap<string, number>,
): number {
  if (isAbstractType(type)) {
    return Math.max(
      0,
      ...walk.schema
        .getPossibleTypes(type)
        .map((possible) => selectionCost(walk, selectionSet, possible, sized)),
    );
  }
  if (!isObjectType(type)) return 0;
  let total = 0;
  for (const node of fieldsOn(walk, selectionSet, type.name)) {
    const field = type.getFields()[node.name.value];
    if (field === undefined) continue;
    const returned = getNamedType(field.type);
    // An argument counts where the operation gives it a value (a variable left out gives none).
    const given = new Set(
      (node.arguments ?? [])
        .filter((a) => valueFromASTUntyped(a.value, walk.variables) != null)
        .map((a) => a.name.value),
    );
    const argumentWeights = field.args
      .filter((a) => given.has(a.name))
      .reduce((sum, a) => sum + (weightOf(a.astNode) ?? 0), 0);
    const weight = weightOf(field.astNode) ?? (isCompositeType(returned) ? 1 : 0);
    total += Math.max(0, weight + argumentWeights);
    if (node.selectionSet === undefined) continue;

    const size = listSizeOf(field);
    const length = lengthOf(size, field, node, walk.variables);
    const sizesChildren = size !== undefined && size.sizedFields.length > 0;
    const childSizes = new Map(sizesChildren ? size.sizedFields.map((f) => [f, length]) : []);
    const beneath = selectionCost(walk, node.selectionSet, returned, childSizes);
    const items = sized.get(field.name) ?? (isList(field) && !sizesChildren ? length : 1);
    if (beneath > 0) total += items * beneath;
  }
  return total;
}

/** IBM's static field cost of operation `operationName` of `document`, from the directives of `schema`. */
export function ibmFieldCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  variables: Variables = {},
  operationName?: string,
): number {
  const operation = getOperationAST(document, operationName);
  const root = operation == null ? undefined : schema.getRootType(operation.operation);
  if (operation == null || root == null) return 0;
  const values: Record<string, unknown> = {};
  for (const { variable, defaultValue } of operation.variableDefinitions ?? []) {
    const name = variable.name.value;
    values[name] =
      name in variables ? variables[name] : defaultValue && valueFromASTUntyped(defaultValue);
  }
  return selectionCost(
    { schema, document, variables: values },
    operation.selectionSet,
    root,
    new Map(),
  );
}
