/**
 * What a cached entry is good for once it is not current. A paid-for answer
 * is held until its retention: it may answer at once (and be refreshed
 * behind the reader, or not at all), stand in for a call that fails or is
 * slow, or only be refreshed first. Whichever it does, the request's report
 * says how old the answer it got is.
 */
import type { CacheEntry } from '../cache/cache.js';
import { sha256 } from '../digest.js';
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
 * are served as they are while one generation behind (refreshed in the
 * background on their turn, every other generation, but not from the calls
 * kept for late refreshes) and refreshed before
 * they answer once two behind; past its TTL (no generation tells), a
 * popular record is asked for again.
 */
export async function heldPolicy(
  held: CacheEntry,
  request: Pick<UpstreamRequest<unknown>, 'key' | 'refreshedWith'>,
  planned: { readonly allocator: Allocator; readonly keyId: string } | undefined,
  generation: GenerationView | undefined,
): Promise<HeldUse> {
  const olderGeneration = held.freshUntil > Date.now();
  if (planned === undefined) return olderGeneration ? 'serve-then-refresh' : 'refresh-first';
  const { lag, earlyRefresh } = await planned.allocator.heldTerms(request.key, planned.keyId);
  if (lag === Number.POSITIVE_INFINITY) return 'serve';
  if (pastOneRefresh(held, generation)) return 'refresh-first';
  if (lag === 0) return 'serve-then-refresh';
  return earlyRefresh && refreshDueByTurn(turnOf(request), held, generation)
    ? 'serve-then-refresh'
    : 'serve';
}

/**
 * Whether the sweep at a new generation (`CachedUpstream.refreshPopular`) owes the held record of
 * popularity `rank` a refresh before anyone asks: the head's once behind at all; a kept record's
 * once two generations behind and likely read today. Refreshed when read instead, one of the
 * day's favourites first read late on a day whose calls were spent was served two refreshes old;
 * swept whatever their views, the kept records nobody read that day were refreshed for nobody
 * (0.95 of the clairvoyant on the third day at 5,000 calls).
 */
export async function owedAtNewGeneration(
  held: CacheEntry,
  key: string,
  rank: number,
  planned: Allocator,
  headRecords: number,
  generation: GenerationView | undefined,
): Promise<boolean> {
  if (rank < headRecords) return true;
  return pastOneRefresh(held, generation) && (await planned.likelyReadToday(key));
}

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

/**
 * A kept record one generation behind whose turn it is to be refreshed now rather than at the
 * next generation: kept records are refreshed every other generation, half of them on each (by
 * the hash of their page, or of their key: `turnOf`), so that the records a day bought do not all fall due on one later day (at
 * 1,000 calls, 470 refreshes on the third day and 200 on the fourth, where now about 300 each).
 */
function refreshDueByTurn(
  turn: string,
  held: CacheEntry,
  generation: GenerationView | undefined,
): boolean {
  const current = generation?.now();
  if (current === undefined || generationsBehind(held.generation, current) < 1) return false;
  return isRefreshTurn(turn, current.id);
}

/** What a kept record takes its turn by: the page it is read on with others, or its own key. */
export function turnOf(request: Pick<UpstreamRequest<unknown>, 'key' | 'refreshedWith'>): string {
  return request.refreshedWith ?? request.key;
}

/** Whether generation `generationId` is one of the two in which kept records of `turn` are refreshed. */
export function isRefreshTurn(turn: string, generationId: number): boolean {
  return (Number.parseInt(sha256(turn).slice(0, 8), 16) + generationId) % 2 === 0;
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
