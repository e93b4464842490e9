/**
 * What a cached entry is good for once it is not current. A paid-for answer
 * is held until its retention: it may answer at once (and be refreshed
 * behind the reader, or not at all), stand in for a call that fails or is
 * slow, or only be refreshed first. Whichever it does, the request's report
 * says how old the answer it got is.
 */
import type { CacheEntry } from '../cache/cache.js';
import type { Allocator } from '../economy/allocator.js';
import type { BudgetLedger } from '../economy/ledger.js';
import {
  type GenerationView,
  generationsBehind,
  isCurrentGeneration,
  milestonesUnchangedSince,
} from '../freshness/generation.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import type { UpstreamObserver } from '../upstream/observer.js';
import { unwrap } from './entries.js';
import type { RequestStats } from './request-stats.js';

/**
 * Share of the day's budget kept for reads nothing cached can answer: below
 * it, answers of the previous generation are served on instead of refreshed.
 */
export const REVALIDATION_RESERVE_SHARE = 0.1;

/** Fresh by its TTL and read in the current generation (or no generation is known). */
export function servable(entry: CacheEntry, generation: GenerationView | undefined): boolean {
  if (entry.freshUntil <= Date.now()) return false;
  return isCurrentGeneration(entry.generation, generation?.now());
}

/**
 * A held record the polls since its read vouch for: one that changes only with a new milestone
 * of its artist (a timeline), when every generation since named the artists of all its new
 * milestones and not this one (freshness/generation.ts). It is current without a call, whatever
 * its TTL: the poll asked the upstream since. At 1,000 calls a day this spares about a quarter
 * of the refreshes, since a kept artist page is four records and its timeline one of them.
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

/**
 * Until when `entry` answers `request` as current (epoch ms), or undefined when it does not: a
 * servable entry until its TTL; one the polls vouch for as long as a record read now, since the
 * poll that vouched for it asked the upstream since.
 */
export function currentUntil(
  entry: CacheEntry,
  request: UpstreamRequest<unknown>,
  generation: GenerationView | undefined,
  ttlMs: number,
): number | undefined {
  if (servable(entry, generation)) return entry.freshUntil;
  if (vouchedByPolls(entry, request, generation)) return Date.now() + ttlMs;
  return undefined;
}

export type HeldUse = 'serve' | 'serve-then-refresh' | 'refresh-first';

/**
 * What a held entry that is not current is good for. Without the plan:
 * one of an older generation answers at once while it is refreshed in the
 * background (stale-while-revalidate); one past its TTL is asked for again.
 * With the plan (allocator.ts), by popularity: the tail is served as it is;
 * the head is served and refreshed in the background; the records after it
 * are served as they are while one generation behind and refreshed before
 * they answer once two behind, so each is refreshed every other generation
 * at most; past its TTL (no generation tells), a popular record is asked for
 * again.
 *
 * A kept record keeps the phase of its first read: an artist page bought in
 * one request is refreshed in one. Kept records used to take turns by their
 * key's hash, half refreshed in each generation one behind, so that the
 * records a day bought would not fall due together two days later; but each
 * record read off its turn was refreshed once more to take it, and at 1,000
 * calls that was 30-60 refreshes a day (200 instead of 60 on the second day).
 * Without turns the refreshes alternate between heavier and lighter days
 * (350 and 170), and every day but the heavy ones gained 0.004-0.007 of the
 * clairvoyant allocator; the heavy ones lost none. The sweep now evens the
 * phases out by count instead, moving records once (popular-sweep.ts).
 */
export async function heldPolicy(
  held: CacheEntry,
  key: string,
  planned: { readonly allocator: Allocator; readonly keyId: string } | undefined,
  generation: GenerationView | undefined,
): Promise<HeldUse> {
  const olderGeneration = held.freshUntil > Date.now();
  if (planned === undefined) return olderGeneration ? 'serve-then-refresh' : 'refresh-first';
  const lag = await planned.allocator.heldLag(key, planned.keyId);
  if (lag === Number.POSITIVE_INFINITY) return 'serve';
  if (pastOneRefresh(held, generation)) return 'refresh-first';
  return lag === 0 ? 'serve-then-refresh' : 'serve';
}

/**
 * When the sweep at a new generation (popular-sweep.ts) owes the held record of
 * popularity `rank` a refresh. `head`: now, as every generation it is behind. `now`: before
 * anyone asks, a kept record two generations behind and likely read today. Refreshed when read
 * instead, one of the day's favourites first read late on a day whose calls were spent was
 * served two refreshes old; swept whatever their views, the kept records nobody read that day
 * were refreshed for nobody (0.95 of the clairvoyant on the third day at 5,000 calls). Of the
 * other kept records likely read today: `next` one generation behind (owed at the next),
 * `after` read in this one (owed at the one after); `current`: the entry answers as it is.
 * Undefined: none of these (the head once refreshed, a record not likely read today, a timeline
 * the polls vouch for).
 */
export async function sweepDue(
  held: CacheEntry,
  key: string,
  rank: number,
  planned: Allocator,
  headRecords: number,
  generation: GenerationView | undefined,
  current: boolean,
): Promise<SweepDue | undefined> {
  if (rank < headRecords) return current ? undefined : 'head';
  if (!(await planned.likelyReadToday(key))) return undefined;
  const behind = generationsBehind(held.generation, generation?.now());
  if (current) return behind === 0 ? 'after' : undefined;
  if (pastOneRefresh(held, generation)) return 'now';
  return behind === 1 ? 'next' : undefined;
}

export type SweepDue = 'head' | 'now' | 'next' | 'after';

/**
 * A held record that is not current and may not answer as it is, however popular: two
 * generations behind (a popular record is never served more than one refresh old), or past its
 * TTL with no generation to tell its age.
 */
function pastOneRefresh(held: CacheEntry, generation: GenerationView | undefined): boolean {
  return (
    held.freshUntil <= Date.now() || generationsBehind(held.generation, generation?.now()) >= 2
  );
}

/** Without the plan, whether the day still affords a background refresh (the plan has its own share for them). */
export async function refreshAffordable(budget: BudgetLedger, keyId: string): Promise<boolean> {
  const usage = await budget.usage(keyId);
  return usage.remaining > Math.ceil(usage.dailyLimit * REVALIDATION_RESERVE_SHARE);
}

/** The held entry that may answer in place of the call: one still within its retention. */
export function standInOf(held: CacheEntry | undefined): CacheEntry | undefined {
  return held !== undefined && held.staleUntil > Date.now() ? held : undefined;
}

/** Answers from a held entry that is not current: its age goes into the report, and nothing reuses it. */
export function answerHeld(entry: CacheEntry, stats: RequestStats): void {
  stats.cacheHits += 1;
  stats.heldFrom(entry);
  stats.answeredFrom(Date.now());
  if (entry.freshUntil > Date.now()) stats.previousGeneration += 1;
}

/** Answers with a held entry in place of the call's answer: the reader is told it is stale, and how old. */
export function answerStale<T>(
  entry: CacheEntry,
  request: UpstreamRequest<T>,
  stats: RequestStats,
  observer: UpstreamObserver,
): T {
  stats.heldFrom(entry);
  stats.stale.push({
    resource: request.resource,
    key: request.key,
    ageSeconds: Math.round((Date.now() - entry.storedAt) / 1000),
  });
  observer.staleServed(request.resource);
  return unwrap<T>(entry, request);
}
