/**
 * How long a read waits for a refresh when a held entry could answer it:
 * past the grace the reader is not kept waiting, and the call is not
 * abandoned either (its answer still refreshes the cache when it lands).
 */
import type { CacheEntry } from '../cache/cache.js';

/** How long a read waits for a slow upstream before a stale entry answers (CACHE_STALE_GRACE_MS). */
export const DEFAULT_STALE_GRACE_MS = 1_000;

/** The flight's entry, or undefined when it takes longer than `waitMs` (it goes on; its failure is not lost). */
export function withinGrace(
  flight: Promise<CacheEntry>,
  waitMs: number,
): Promise<CacheEntry | undefined> {
  let cancel = () => {};
  const grace = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), waitMs);
    cancel = () => clearTimeout(timer);
  });
  flight.catch(() => undefined);
  return Promise.race([flight, grace]).finally(cancel);
}
