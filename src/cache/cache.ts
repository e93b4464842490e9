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
  /** Approximate memory cost, from the upstream body size. */
  readonly bytes: number;
  readonly storedAt: number;
  /** Until then (epoch ms) the entry is served without asking the upstream. */
  readonly freshUntil: number;
  /** Until then the entry may be served when the upstream fails. */
  readonly staleUntil: number;
}

export interface ResponseCache {
  /** The entry for `key`, fresh or stale, or undefined once it is past `staleUntil`. */
  get(key: string): CacheEntry | undefined;
  set(key: string, entry: CacheEntry): void;
  delete(key: string): void;
  /** Entries held now, for metrics. */
  readonly size: number;
}
