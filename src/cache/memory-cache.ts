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

/** An in-process LRU bounded both by entry count and by approximate bytes. */
export class MemoryCache implements ResponseCache {
  readonly #lru: LRUCache<string, CacheEntry>;
  readonly observer: MemoryCacheOptions['observer'];
  readonly #maxEntries: number;

  constructor({ maxEntries, maxBytes, observer }: MemoryCacheOptions) {
    this.observer = observer;
    this.#maxEntries = Math.max(1, maxEntries);
    // No `max`: with one, lru-cache allocates its arrays for that many entries at start, and a
    // byte bound that admits hundreds of thousands of small entries held megabytes of empty
    // slots for good. Without it they grow with the entries actually held; the count bound is
    // kept by `setNow` instead.
    this.#lru = new LRUCache<string, CacheEntry>({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => Math.max(1, entry.bytes + key.length + ENTRY_OVERHEAD_BYTES),
    });
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
    // The least recently used entries make room, as lru-cache's own `max` would evict them.
    while (this.#lru.size > this.#maxEntries) this.#lru.pop();
  }

  reweigh(key: string, entry: CacheEntry): void {
    // Only the very entry weighed: the key may since hold another, or none.
    if (this.#lru.peek(key)?.value === entry.value)
      this.#lru.set(key, entry, { noUpdateTTL: true });
  }

  async delete(key: string): Promise<void> {
    this.#lru.delete(key);
  }

  /** The keys held now, most recently used first. */
  keys(): string[] {
    return [...this.#lru.keys()];
  }
}
