/**
 * Where a cached entry stands for a read, named once: the read policy
 * (read-policy.ts) decides on this state, and nothing else re-derives it
 * from the entry's fields.
 *
 * - `none`: nothing held. A not-found answer past its TTL or its generation
 *   is nothing held either (the record is unknown again), nor is an entry
 *   past its retention, which the stores do not return.
 * - `current`: answers as it is.
 * - `behind`: read one data generation ago, within its TTL.
 *   While the upstream's daily refresh is expected and not yet seen
 *   (freshness/refresh-window.ts), an entry one generation behind is counted
 *   two behind: the upstream has most likely published the next one already.
 * - `outdated`: two generations or more behind, or past its TTL (with no
 *   generation to tell its age), and still within its retention: it may
 *   stand in for a call, and whoever it answers is told it is stale.
 */
import type { CacheEntry } from '../cache/cache.js';
import {
  type GenerationView,
  generationsBehind,
  isCurrentGeneration,
  milestonesUnchangedSince,
} from '../freshness/generation.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';

export type EntryState =
  | { readonly kind: 'none' }
  /** `until`: when it stops answering as current (epoch ms). */
  | { readonly kind: 'current'; readonly entry: CacheEntry; readonly until: number }
  | { readonly kind: 'behind'; readonly entry: CacheEntry }
  | { readonly kind: 'outdated'; readonly entry: CacheEntry };

export type EntryKind = EntryState['kind'];

export const ENTRY_KINDS: readonly EntryKind[] = ['none', 'current', 'behind', 'outdated'];

const NONE: EntryState = { kind: 'none' };

/** The state of `found` for a read of `request`, at `now` (epoch ms). */
export function entryState(
  found: CacheEntry | undefined,
  request: UpstreamRequest<unknown>,
  generation: GenerationView | undefined,
  ttlMs: number,
  now = Date.now(),
): EntryState {
  if (found === undefined) return NONE;
  if (isCurrent(found, generation, now))
    return { kind: 'current', entry: found, until: found.freshUntil };
  if (found.outcome === 'not-found') return NONE;
  // The poll asked the upstream since, and saw that it changed nothing this record shows.
  if (vouchedByPolls(found, request, generation))
    return { kind: 'current', entry: found, until: now + ttlMs };
  if (found.staleUntil <= now) return NONE;
  const withinTtl = found.freshUntil > now;
  const behind =
    generationsBehind(found.generation, generation?.now()) +
    (generation?.refreshExpected() === true ? 1 : 0);
  return withinTtl && behind === 1
    ? { kind: 'behind', entry: found }
    : { kind: 'outdated', entry: found };
}

/**
 * Fresh by its TTL and read in the current generation (or no generation is known): what an
 * answer another replica stored must be to answer a read waiting for it.
 */
export function isCurrent(
  entry: CacheEntry,
  generation: GenerationView | undefined,
  now = Date.now(),
): boolean {
  return entry.freshUntil > now && isCurrentGeneration(entry.generation, generation?.now());
}

/**
 * A record that changes only with a new milestone of its artist (a timeline) is current whatever
 * its TTL when every generation since its read named the artists of all its new milestones, and
 * not this one.
 */
function vouchedByPolls(
  entry: CacheEntry,
  request: UpstreamRequest<unknown>,
  generation: GenerationView | undefined,
): boolean {
  const artist = request.changesOnlyWithMilestonesOf;
  return (
    artist !== undefined &&
    entry.outcome === 'value' &&
    milestonesUnchangedSince(entry.generation, artist, generation?.now())
  );
}
