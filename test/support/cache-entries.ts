/** A cache entry as the stores' specs write it: a value, fresh for a minute, kept for ten. */
import type { CacheEntry } from '../../src/cache/cache.js';

export function freshEntry(value: unknown): CacheEntry {
  const now = Date.now();
  return {
    outcome: 'value',
    value,
    bytes: 10,
    storedAt: now,
    freshUntil: now + 60_000,
    staleUntil: now + 600_000,
  };
}
