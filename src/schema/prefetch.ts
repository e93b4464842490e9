/**
 * Cold fan-out: a root field whose children need only its arguments starts
 * their upstream reads together with its own, so that a nested page costs
 * one upstream round trip instead of one per level. `artist(slug:)` must
 * still read the profile (an unknown slug is null with NOT_FOUND), but its
 * history, timeline and songs need nothing but the slug the client gave.
 *
 * The children read through the same request loader later and find the
 * reads already under way. A child whose field carries a directive
 * (@skip/@include) is not prefetched: it may not run.
 */
import { type FieldNode, type GraphQLResolveInfo, Kind, type SelectionSetNode } from 'graphql';
import { endpoints, type UpstreamRequest } from '../upstream/endpoints.js';
import type { GatewayContext } from './context.js';

/** Names of the fields selected directly under the resolving field, through fragments. */
export function selectedChildren(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const visit = (selectionSet: SelectionSetNode | undefined, seenFragments: Set<string>): void => {
    for (const selection of selectionSet?.selections ?? []) {
      if ((selection.directives?.length ?? 0) > 0) continue;
      if (selection.kind === Kind.FIELD) names.add(selection.name.value);
      else if (selection.kind === Kind.INLINE_FRAGMENT)
        visit(selection.selectionSet, seenFragments);
      else if (!seenFragments.has(selection.name.value)) {
        seenFragments.add(selection.name.value);
        visit(info.fragments[selection.name.value]?.selectionSet, seenFragments);
      }
    }
  };
  for (const node of info.fieldNodes as readonly FieldNode[]) visit(node.selectionSet, new Set());
  return names;
}

/** The reads of an artist's fields that need only its slug, for the children selected. */
function artistChildReads(
  slug: string,
  children: Set<string>,
  context: GatewayContext,
): UpstreamRequest<unknown>[] {
  const reads: UpstreamRequest<unknown>[] = [];
  if (children.has('history')) reads.push(endpoints.artistHistory(slug));
  if (children.has('milestones')) reads.push(endpoints.timeline(slug));
  if (children.has('songs'))
    reads.push(endpoints.songsOfArtist(slug, context.assumptions.songsOfArtistLimit));
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
  const reads = artistChildReads(slug, selectedChildren(info), context);
  if (reads.length === 0 || (await context.loader.knownMissing(endpoints.artist(slug)))) return;
  for (const read of reads) context.loader.prefetch(read);
}
