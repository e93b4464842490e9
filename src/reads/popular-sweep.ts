/**
 * The sweep at a new generation (the plan's, read-policy.ts): the refreshes
 * the plan owes the popular records before anyone asks for them again
 * (`sweepDue`), most asked first, and those it moves ahead so that the
 * generations to come share them evenly. Every replica sweeps the records it
 * has read; the flight lease makes each refresh one call for the deployment.
 * Its refreshes queue in the upstream client's background lane, behind
 * every call a reader waits for.
 */

import pLimit from 'p-limit';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import type { Allocator } from '../economy/allocator.js';
import { type GenerationView, generationsBehind } from '../freshness/generation.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import type { EntryState } from './entry-state.js';

/** A refresh the sweep started: its end comes wrapped, so that awaiting the start does not wait for it. */
export type StartedRefresh = { readonly done: Promise<void> } | undefined;

/** What the sweep needs of the process's read path. */
export interface SweepReads {
  /** The request this process read under `key`, while it remembers it. */
  known(key: string): UpstreamRequest<unknown> | undefined;
  readonly cache: ResponseCache;
  readonly generation: GenerationView | undefined;
  /** Where `entry` stands for a read of `request`. */
  state(entry: CacheEntry, request: UpstreamRequest<unknown>): EntryState;
  /** Starts a background refresh of `request` (undefined: none, the day cannot afford it). */
  refresh(request: UpstreamRequest<unknown>): Promise<StartedRefresh>;
}

/** Where a record the sweep looked at stands, and its refresh when the sweep started one. */
interface SweepCheck {
  readonly due: SweepDue;
  readonly request: UpstreamRequest<unknown>;
  readonly refresh?: StartedRefresh;
}

/**
 * Kept records the sweep checks at once (each a cache read and a popularity count, in Redis when
 * shared); their refreshes then queue for the upstream client's own concurrency.
 */
const SWEEP_CHECKS_AT_ONCE = 16;

/** Sweeps the records of `keyId`'s plan; resolves once the refreshes are back, with how many this process started or found under way. */
export async function sweepPopular(
  planned: Allocator,
  keyId: string,
  reads: SweepReads,
): Promise<number> {
  const { headRecords, keptRecords } = await planned.tiers(keyId);
  const ranked = await planned.popularity.top(keptRecords);
  // Each record's check is a few store reads: one after another, thousands of them would keep
  // the sweep going while the day's views read the same records.
  const checking = pLimit(SWEEP_CHECKS_AT_ONCE);
  const checks = await Promise.all(
    ranked.map((key, rank) => checking(() => checkRecord(key, rank, planned, headRecords, reads))),
  );
  const due = (when: SweepDue) =>
    checks.filter((check): check is SweepCheck => check?.due === when);
  const dueNext = due('next');
  const ahead = refreshedAhead(
    dueNext.length,
    due('now').length + due('after').length,
    await planned.firstDay(),
  );
  const movedAhead = await Promise.all(
    dueNext.slice(0, ahead).map((check) => reads.refresh(check.request)),
  );
  const started = [...checks.map((check) => check?.refresh), ...movedAhead].flatMap((refresh) =>
    refresh === undefined ? [] : [refresh.done],
  );
  await Promise.all(started);
  return started.length;
}

/** When the record `key` of popularity `rank` falls due; one due now has its refresh started. */
async function checkRecord(
  key: string,
  rank: number,
  planned: Allocator,
  headRecords: number,
  reads: SweepReads,
): Promise<SweepCheck | undefined> {
  const request = reads.known(key);
  if (request === undefined) return undefined;
  const cached = await reads.cache.get(key);
  if (cached === undefined || cached.outcome === 'not-found') return undefined;
  const state = reads.state(cached, request);
  const behind = generationsBehind(cached.generation, reads.generation?.now());
  const due = await sweepDue(state, behind, rank < headRecords, () => planned.likelyReadToday(key));
  if (due === undefined) return undefined;
  if (due === 'next' || due === 'after') return { due, request };
  return { due, request, refresh: await reads.refresh(request) };
}

export type SweepDue = 'head' | 'now' | 'next' | 'after';

/**
 * When the sweep owes a held record a refresh. `head`: now, as every generation it is behind.
 * `now`: before anyone asks, a kept record past one refresh and likely read today: refreshed
 * only when read instead, a favourite first read late on a day whose calls were spent would be
 * served two refreshes old; swept whatever its views, a record nobody reads that day would be
 * refreshed for nobody. Of the other kept records likely read today: `next` one generation
 * behind (owed at the next), `after` read in this one (owed at the one after). Undefined: none of
 * these (the head once refreshed, a record not likely read today, a timeline the polls vouch for).
 */
export async function sweepDue(
  state: EntryState,
  generationsBehind: number,
  inHead: boolean,
  likelyReadToday: () => Promise<boolean>,
): Promise<SweepDue | undefined> {
  if (inHead) return state.kind === 'current' ? undefined : 'head';
  if (!(await likelyReadToday())) return undefined;
  switch (state.kind) {
    case 'current':
      return generationsBehind === 0 ? 'after' : undefined;
    case 'behind':
      return 'next';
    case 'outdated':
      return 'now';
    default:
      return undefined;
  }
}

/**
 * How many of the kept records due at the next generation the sweep refreshes now, most popular
 * first, so that the generations to come share the refreshes evenly: half the difference
 * between the kept records due next and those due after it (those owed now are due after it
 * once refreshed; the head is refreshed every generation and counts for neither).
 *
 * A kept record keeps the phase of its first read, so the records a new deployment buys on its
 * first day would all fall due together on its third, whose first touches would then be few.
 * Moved, a record costs one refresh more, once, and is then refreshed every other generation as
 * before (docs/decisions/sweep-evens-the-phases.md).
 *
 * A record another replica has already moved is current, due after: a replica that sweeps later
 * moves only what is still uneven, and none twice. None on a first day: most of what it buys
 * comes after the sweep (all due after it), and its refresh reserve is only the head's
 * (day-shape.ts); moving the few records read before the upstream's refresh would take its
 * first touches.
 */
export function refreshedAhead(dueNext: number, dueAfter: number, firstDay: boolean): number {
  return firstDay ? 0 : Math.max(0, Math.floor((dueNext - dueAfter) / 2));
}
