/**
 * What one GraphQL request's reads tell its answer: the figures behind
 * `extensions.cost`, `extensions.stale`, `extensions.freshness` and
 * `extensions.warnings`, and what the response cache needs to know of them.
 * The read path writes it; plugins only read it. What the request may spend
 * is apart (request-spending.ts).
 */
import type { ErrorCode } from '../error-codes.js';

/** A read answered from a held entry past its freshness. */
export interface StaleRead {
  readonly resource: string;
  /** The read's key: the fields that loaded it are the ones `extensions.stale` names (request-loader.ts). */
  readonly key: string;
  readonly ageSeconds: number;
}

/** A record the upstream sent unreadable, left out of a list: `path` is the list's, `index` its place upstream. */
export interface ListWarning {
  readonly code: Extract<ErrorCode, 'UPSTREAM_INVALID_RESPONSE'>;
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly index: number;
}

/** The data generation a held answer was read in, and when (epoch ms). */
export interface HeldRead {
  readonly generation: number;
  readonly storedAt: number;
}

export class RequestReport {
  /** Calls this request sent to the upstream, retries included. */
  upstreamCalls = 0;
  /** Reads answered from the cross-request cache. */
  cacheHits = 0;
  /** Reads answered by another read of the same request, or by another request's call in flight. */
  deduplicated = 0;
  /** Reads answered from a held entry past its freshness. */
  readonly stale: StaleRead[] = [];
  /** Records left out of lists because the upstream sent them unreadable (`extensions.warnings`). */
  readonly warnings: ListWarning[] = [];
  /** Reads answered from an older data generation while one background call refreshes them. */
  previousGeneration = 0;
  /** Some of those were not refreshed because the day's budget is low. */
  revalidationDeferred = false;
  /** The upstream rejected the client's own key: the whole request must fail with 401. */
  unauthenticated = false;
  /**
   * A read of this request found the client's key accepted: its other reads take that verdict
   * instead of asking the key registry again (with Redis, a round trip each).
   */
  keyAccepted = false;
  /**
   * The key check found the client's key neither accepted nor rejected as the request began: the
   * first read to prove it may take the proof's lease without asking the registry again (the
   * proof reads the registry once it holds the lease anyway). Taken by that read.
   */
  keyUnknown = false;
  /** Until when (epoch ms) every upstream answer this request used stays fresh: how long its answer may be reused. */
  freshUntil = Number.POSITIVE_INFINITY;
  /** Keys of the upstream records this request read: a response-cache hit counts them as asked for again. */
  readonly reads = new Set<string>();
  /** The oldest held answer used that was not current (`extensions.freshness.oldestRead`). */
  oldestRead: HeldRead | undefined;

  /** Notes a held answer served although it is not current: an older generation, or past its TTL. */
  heldFrom(entry: { readonly generation?: number; readonly storedAt: number }): void {
    if (this.oldestRead !== undefined && this.oldestRead.storedAt <= entry.storedAt) return;
    this.oldestRead = { generation: entry.generation ?? 0, storedAt: entry.storedAt };
  }

  /** Notes the freshness of an upstream answer this request used. */
  answeredFrom(freshUntil: number): void {
    if (freshUntil < this.freshUntil) this.freshUntil = freshUntil;
  }
}
