/**
 * Cold fan-out: a root field whose children need only its arguments starts
 * their upstream reads together with its own, so that a nested page costs
 * one upstream round trip instead of one per level. `artist(slug:)` must
 * still read the profile (an unknown slug is null with NOT_FOUND), but its
 * history, timeline and songs need nothing but the slug the client gave:
 * their fields declare that read (`extensions.upstream.bySlug`, see
 * field-reads.ts), and it is taken from there, as their resolvers take it.
 *
 * The children read through the same request loader later and find the
 * reads already under way. A profile this process holds needs none of it:
 * the root field answers at once, its children resolve in the same turn,
 * and their reads leave together as they would from here. A child whose
 * field carries a directive (@skip/@include) is not prefetched: it may not
 * run; nor is one whose arguments its resolver will refuse (it reads
 * nothing then).
 */
import {
  type FieldNode,
  type GraphQLField,
  type GraphQLResolveInfo,
  getArgumentValues,
  getNamedType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { endpoints, type UpstreamRequest } from '../upstream/endpoints.js';
import type { GatewayContext } from './context.js';
import { type FieldReads, fieldReadsOf } from './field-reads.js';

/** The fields selected directly under the resolving field, by name, through fragments. */
function childrenOf(info: GraphQLResolveInfo): ReadonlyMap<string, readonly FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visit = (selectionSet: SelectionSetNode | undefined, seenFragments: Set<string>): void => {
    for (const selection of selectionSet?.selections ?? []) {
      if ((selection.directives?.length ?? 0) > 0) continue;
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        fields.set(name, [...(fields.get(name) ?? []), selection]);
      } else if (selection.kind === Kind.INLINE_FRAGMENT)
        visit(selection.selectionSet, seenFragments);
      else if (!seenFragments.has(selection.name.value)) {
        seenFragments.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, seenFragments);
      }
    }
  };
  for (const node of info.fieldNodes as readonly FieldNode[]) visit(node.selectionSet, new Set());
  return fields;
}

interface Children {
  readonly fieldNodes: readonly FieldNode[];
  readonly children: ReadonlyMap<string, readonly FieldNode[]>;
}

/**
 * What childrenOf found for each selection, by its first node: a parsed document is one object
 * for every request that sends its text, so a page asked again walks nothing, and a node's
 * fragments are its own document's. Each node keeps the field node lists it was first of (under
 * an abstract type, runtime types merge different selections after the same first node).
 */
const childrenByNode = new WeakMap<FieldNode, Children[]>();

export function selectedChildren(
  info: GraphQLResolveInfo,
): ReadonlyMap<string, readonly FieldNode[]> {
  const { fieldNodes } = info;
  const first = fieldNodes[0];
  if (first === undefined) return childrenOf(info);
  const known = childrenByNode.get(first);
  const found = known?.find(
    (entry) =>
      entry.fieldNodes.length === fieldNodes.length &&
      entry.fieldNodes.every((node, index) => node === fieldNodes[index]),
  );
  if (found !== undefined) return found.children;
  const children = childrenOf(info);
  const entry = { fieldNodes: [...fieldNodes], children };
  if (known === undefined) childrenByNode.set(first, [entry]);
  else known.push(entry);
  return children;
}

/** Whether the child's resolver accepts this selection's arguments, with the request's variables. */
function accepted(
  field: GraphQLField<unknown, unknown>,
  reads: FieldReads,
  node: FieldNode,
  info: GraphQLResolveInfo,
): boolean {
  if (reads.checkArgs === undefined) return true;
  try {
    reads.checkArgs(getArgumentValues(field, node, info.variableValues));
    return true;
  } catch {
    return false;
  }
}

/** The reads of the returned object's selected fields that need only its slug and will be made. */
function childReads(
  slug: string,
  info: GraphQLResolveInfo,
  context: GatewayContext,
): UpstreamRequest<unknown>[] {
  const type = getNamedType(info.returnType);
  if (!isObjectType(type)) return [];
  const reads: UpstreamRequest<unknown>[] = [];
  for (const [name, nodes] of selectedChildren(info)) {
    const field = type.getFields()[name];
    const declared = field === undefined ? undefined : fieldReadsOf(field);
    // One accepted selection is enough: aliases of a field share its read.
    if (
      field !== undefined &&
      declared?.bySlug !== undefined &&
      nodes.some((node) => accepted(field, declared, node, info))
    )
      reads.push(declared.bySlug(slug, context));
  }
  return reads;
}

/**
 * Starts the selected children's reads of `artist(slug:)` alongside the
 * profile, unless the profile is already known not to exist (a cached
 * not-found answer), so an unknown slug costs nothing more once known.
 */
export async function prefetchArtistChildren(
  slug: string,
  info: GraphQLResolveInfo,
  context: GatewayContext,
): Promise<void> {
  const reads = childReads(slug, info, context);
  if (reads.length === 0 || (await context.loader.knownMissing(endpoints.artist(slug)))) return;
  for (const read of reads) context.loader.prefetch(read);
}
