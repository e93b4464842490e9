/**
 * The seam between the gateway and wherever upstream answers are kept across
 * requests. Entries outlive their freshness: a stale entry is not served
 * normally, but may stand in when the upstream fails (stale-if-error).
 */
export interface CacheEntry {
  /** A read record, or the upstream's not-found answer (cached with a shorter TTL). */
  readonly outcome: 'value' | 'not-found';
  /** The typed record for `value`; the upstream's message for `not-found`. */
  readonly value: unknown;
  /** Approximate memory it takes in this process (reads/entries.ts `recordBytes`, stored-response.ts `entryOf`). */
  readonly bytes: number;
  readonly storedAt: number;
  /** Until then (epoch ms) the entry is served without asking the upstream. */
  readonly freshUntil: number;
  /** Until then the entry may be served when the upstream fails. */
  readonly staleUntil: number;
  /** The data generation it was read in (src/freshness/); absent when none was known. */
  readonly generation?: number;
}

/**
 * Asynchronous, because the shared level lives in Redis. Implementations
 * never reject: a store that cannot answer behaves as a miss (get) or as a
 * dropped write (set), so a cache outage costs upstream calls, not answers.
 */
export interface ResponseCache {
  /** The entry for `key`, fresh or stale, or undefined once it is past `staleUntil`. */
  get(key: string): Promise<CacheEntry | undefined>;
  /**
   * The entry `get` would answer with, when this process alone can tell it without waiting and it
   * is fresh (a record held in memory); undefined otherwise, and then `get` decides.
   */
  peek?(key: string): CacheEntry | undefined;
  /** Told when a peeked entry answers a read: counted as the hit `get` would count. */
  peeked?(key: string): void;
  set(key: string, entry: CacheEntry): Promise<void>;
  /**
   * Counts `entry`'s weight again where this process holds it, its life unchanged: what the
   * process holds of an entry can grow after it is stored (a stored answer's gzip form).
   */
  reweigh?(key: string, entry: CacheEntry): void;
  delete(key: string): Promise<void>;
}

/** How long a store must keep `entry`: its freshness plus its stale-if-error allowance. */
export function retentionMs(entry: CacheEntry): number {
  return Math.max(1, entry.staleUntil - entry.storedAt);
}
