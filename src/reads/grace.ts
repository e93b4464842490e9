/**
 * How long a read waits for a slow upstream when a stale entry could answer
 * it: past the grace the reader is not kept waiting, and the call is not
 * abandoned either (its answer still refreshes the cache when it lands).
 */
import type { CacheEntry } from '../cache/cache.js';

/** How long a read waits for a slow upstream before a stale entry answers (CACHE_STALE_GRACE_MS). */
export const DEFAULT_STALE_GRACE_MS = 1_000;

/**
 * The flight's entry, or undefined when it takes longer than `graceMs` (it goes on; its failure
 * is not lost). An infinite grace waits for the flight, however long it takes.
 */
export function withinGrace(
  flight: Promise<CacheEntry>,
  graceMs: number,
): Promise<CacheEntry | undefined> {
  if (graceMs === Number.POSITIVE_INFINITY) return flight;
  let cancel = () => {};
  const grace = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), graceMs);
    cancel = () => clearTimeout(timer);
  });
  flight.catch(() => undefined);
  return Promise.race([flight, grace]).finally(cancel);
}
