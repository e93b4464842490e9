/**
 * The in-process LRU (L1) in front of the shared Redis level (L2). A fresh
 * L1 entry answers without a round trip; otherwise L2 is asked, because
 * another replica may have stored a newer answer, and what it holds is
 * copied into L1. When Redis cannot answer, L1 still serves what it has,
 * stale entries included (for stale-if-error).
 */
import type { CacheEntry, ResponseCache } from './cache.js';
import { isFresh, type MemoryCache } from './memory-cache.js';

export interface TwoLevelOptions {
  /** Whether an entry belongs to the current data generation: an older L1 entry asks L2, where another replica may have refreshed it. */
  readonly isCurrent?: (entry: CacheEntry) => boolean;
  /** Whether an entry is written to L2 too; the others stay in this process. Default: all. */
  readonly shared?: (entry: CacheEntry) => boolean;
}

const always = () => true;

export class TwoLevelCache implements ResponseCache {
  readonly #isCurrent: (entry: CacheEntry) => boolean;
  readonly #shared: (entry: CacheEntry) => boolean;

  constructor(
    private readonly l1: MemoryCache,
    private readonly l2: ResponseCache,
    { isCurrent, shared }: TwoLevelOptions = {},
  ) {
    this.#isCurrent = isCurrent ?? always;
    this.#shared = shared ?? always;
  }

  async get(key: string): Promise<CacheEntry | undefined> {
    const local = this.l1.getNow(key);
    this.l1.observer?.cacheLookup('l1', isFresh(local));
    if (local !== undefined && isFresh(local) && this.#isCurrent(local)) return local;
    const shared = await this.l2.get(key);
    this.l1.observer?.cacheLookup('l2', isFresh(shared));
    if (shared === undefined) return local;
    if (local === undefined || shared.storedAt > local.storedAt) {
      this.l1.setNow(key, shared);
      return shared;
    }
    return local;
  }

  /** A fresh and current first-level entry: the one `get` answers with before asking L2. */
  peek(key: string): CacheEntry | undefined {
    const local = this.l1.getNow(key);
    return local !== undefined && isFresh(local) && this.#isCurrent(local) ? local : undefined;
  }

  peeked(): void {
    this.l1.observer?.cacheLookup('l1', true);
  }

  /** The weight is this process's memory: the first level's alone. */
  reweigh(key: string, entry: CacheEntry): void {
    this.l1.reweigh(key, entry);
  }

  async set(key: string, entry: CacheEntry): Promise<void> {
    this.l1.setNow(key, entry);
    if (this.#shared(entry)) await this.l2.set(key, entry);
  }

  async delete(key: string): Promise<void> {
    await Promise.all([this.l1.delete(key), this.l2.delete(key)]);
  }
}
