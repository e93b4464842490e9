/**
 * Cold fan-out: a root field whose children need only its arguments starts
 * their upstream reads together with its own, so that a nested page costs
 * one upstream round trip instead of one per level. `artist(slug:)` must
 * still read the profile (an unknown slug is null with NOT_FOUND), but its
 * history, timeline and songs need nothing but the slug the client gave.
 *
 * The children read through the same request loader later and find the
 * reads already under way. A child whose field carries a directive
 * (@skip/@include) is not prefetched: it may not run; nor is one whose
 * arguments its resolver will refuse (it reads nothing then).
 */
import {
  type FieldNode,
  type GraphQLResolveInfo,
  getArgumentValues,
  getNamedType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import { endpoints, type UpstreamRequest } from '../upstream/endpoints.js';
import { windowRequest } from './connections.js';
import type { GatewayContext } from './context.js';

/** The fields selected directly under the resolving field, by name, through fragments. */
export function selectedChildren(info: GraphQLResolveInfo): Map<string, FieldNode[]> {
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

interface ChildRead {
  read(slug: string, context: GatewayContext): UpstreamRequest<unknown>;
  /** The check the child's resolver makes of its arguments before it reads: throws to refuse them. */
  readonly checkArgs?: (args: Record<string, unknown>) => unknown;
}

/** The children of an artist that need only its slug, and what each reads. */
const ARTIST_CHILDREN: Readonly<Record<string, ChildRead>> = {
  history: { read: (slug) => endpoints.artistHistory(slug) },
  milestones: { read: (slug) => endpoints.timeline(slug) },
  songs: {
    read: (slug, context) => endpoints.songsOfArtist(slug, context.assumptions.songsOfArtistLimit),
    checkArgs: windowRequest,
  },
};

/** Whether the child's resolver accepts this field's arguments, with the request's variables. */
function accepted(child: ChildRead, node: FieldNode, info: GraphQLResolveInfo): boolean {
  if (child.checkArgs === undefined) return true;
  const parent = getNamedType(info.returnType);
  const field = isObjectType(parent) ? parent.getFields()[node.name.value] : undefined;
  if (field === undefined) return false;
  try {
    child.checkArgs(getArgumentValues(field, node, info.variableValues));
    return true;
  } catch {
    return false;
  }
}

/** The reads of an artist's selected fields that need only its slug and will be made. */
function artistChildReads(
  slug: string,
  info: GraphQLResolveInfo,
  context: GatewayContext,
): UpstreamRequest<unknown>[] {
  const reads: UpstreamRequest<unknown>[] = [];
  for (const [name, nodes] of selectedChildren(info)) {
    const child = ARTIST_CHILDREN[name];
    // One accepted selection is enough: aliases of a field share its read.
    if (child !== undefined && nodes.some((node) => accepted(child, node, info)))
      reads.push(child.read(slug, context));
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
  const reads = artistChildReads(slug, info, context);
  if (reads.length === 0 || (await context.loader.knownMissing(endpoints.artist(slug)))) return;
  for (const read of reads) context.loader.prefetch(read);
}
