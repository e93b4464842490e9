import { LRUCache } from 'lru-cache';
import type { UpstreamObserver } from '../upstream/observer.js';
import { type CacheEntry, type ResponseCache, retentionMs } from './cache.js';

export interface MemoryCacheOptions {
  readonly maxEntries: number;
  readonly maxBytes: number;
  /** Told of every lookup, hit or miss, here and at the level behind it (metrics, traces). */
  readonly observer?: Pick<UpstreamObserver, 'cacheLookup'>;
}

export const isFresh = (entry: CacheEntry | undefined): boolean =>
  entry !== undefined && entry.freshUntil > Date.now();

/** Each entry also costs its key and bookkeeping, whatever its body size. */
const ENTRY_OVERHEAD_BYTES = 256;

/** Never applied: see the constructor. */
const EAGER_TTL_TRACKING_MS = 1;
/** Neither whole nor below 2^31: the kind of number a real entry's start time and ttl are. */
const WARM_UP_TTL_MS = 2 ** 32 + 0.5;
const WARM_UP_KEY = '';
const WARM_UP_ENTRY: CacheEntry = {
  outcome: 'not-found',
  value: '',
  bytes: 0,
  storedAt: 0,
  freshUntil: 0,
  staleUntil: 0,
};

/** An in-process LRU bounded both by entry count and by approximate bytes. */
export class MemoryCache implements ResponseCache {
  readonly #lru: LRUCache<string, CacheEntry>;
  readonly observer: MemoryCacheOptions['observer'];

  constructor({ maxEntries, maxBytes, observer }: MemoryCacheOptions) {
    this.observer = observer;
    this.#lru = new LRUCache<string, CacheEntry>({
      // lru-cache allocates its arrays for `max` entries at once; no more than this many entries
      // of at least ENTRY_OVERHEAD_BYTES each can fit the byte bound, so slots past it are waste.
      max: Math.max(1, Math.min(maxEntries, Math.floor(maxBytes / ENTRY_OVERHEAD_BYTES))),
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.bytes + key.length + ENTRY_OVERHEAD_BYTES),
      // Every entry brings its own ttl; a default one only makes lru-cache build its per-entry
      // ttl arrays (`max` slots each, tens of ms at 200,000) here at start rather than inside
      // the first request that stores an answer.
      ttl: EAGER_TTL_TRACKING_MS,
    });
    // Those arrays start as small integers; the first stored time (a fraction of a ms) and
    // retention (past 2^31 ms) turn each into doubles, copying all its slots: do that here too.
    this.#lru.set(WARM_UP_KEY, WARM_UP_ENTRY, { ttl: WARM_UP_TTL_MS });
    this.#lru.delete(WARM_UP_KEY);
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const entry = this.getNow(key);
    this.observer?.cacheLookup('l1', isFresh(entry));
    return entry;
  }

  peek(key: string): CacheEntry | undefined {
    const entry = this.getNow(key);
    return entry !== undefined && isFresh(entry) ? entry : undefined;
  }

  peeked(): void {
    this.observer?.cacheLookup('l1', true);
  }

  /** The same as `get`, without a promise: the two-level cache consults its first level this way. */
  getNow(key: string): CacheEntry | undefined {
    const entry = this.#lru.get(key);
    if (entry !== undefined && entry.staleUntil <= Date.now()) {
      this.#lru.delete(key);
      return undefined;
    }
    return entry;
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.setNow(key, entry);
  }

  setNow(key: string, entry: CacheEntry): void {
    this.#lru.set(key, entry, { ttl: retentionMs(entry) });
  }

  reweigh(key: string, entry: CacheEntry): void {
    // Only the very entry weighed: the key may since hold another, or none.
    if (this.#lru.peek(key)?.value === entry.value)
      this.#lru.set(key, entry, { noUpdateTTL: true });
  }

  async delete(key: string): Promise<void> {
    this.#lru.delete(key);
  }
}
