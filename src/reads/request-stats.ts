import type { ErrorCode } from '../error-codes.js';
import type { WholeRequestHold } from './whole-request-hold.js';

/** What one GraphQL request cost upstream: the figures behind `extensions.cost`. */
export interface StaleRead {
  readonly resource: string;
  /** The read's key: the fields that loaded it are the ones `extensions.stale` names (request-loader.ts). */
  readonly key: string;
  readonly ageSeconds: number;
}

/**
 * A read would take the request past its upstream-call cap (MAX_UPSTREAM_COST).
 * The estimate refuses most such operations before they run; this holds the
 * bound whatever the data turns out to hold (an album of 150 tracks).
 */
export class CallCapReached extends Error {
  override readonly name = 'CallCapReached';

  constructor(readonly maximum: number) {
    super(`This request reached its maximum of ${maximum} upstream calls`);
  }
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

export class RequestStats {
  /** Calls this request sent to the upstream, retries included. */
  upstreamCalls = 0;
  /** Reads answered from the cross-request cache. */
  cacheHits = 0;
  /** Reads answered by another read of the same request, or by another request's call in flight. */
  deduplicated = 0;
  /** Reads answered from an expired cache entry because the upstream failed. */
  readonly stale: StaleRead[] = [];
  /** Records left out of lists because the upstream sent them unreadable (`extensions.warnings`). */
  readonly warnings: ListWarning[] = [];
  /** Reads answered from an older data generation while one background call refreshes them. */
  previousGeneration = 0;
  /** Some of those were not refreshed because the day's budget is low. */
  revalidationDeferred = false;
  /** The upstream rejected the client's own key: the whole request must fail with 401. */
  unauthenticated = false;
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

  /**
   * The operation's estimated calls in the worst case (MAX_UPSTREAM_COST's estimate): its first
   * call opens connections for the rest while it is in flight (warm-connections.ts).
   */
  estimatedCalls = 1;

  /**
   * `maxUpstreamCalls`: real calls (cache hits and shared reads are free) this request may make.
   * `hold`: the request's first touches are taken from the plan together (a GraphQL request; not
   * a subscription's events, nor the gateway's own background reads).
   */
  constructor(
    readonly maxUpstreamCalls = Number.POSITIVE_INFINITY,
    readonly hold?: WholeRequestHold,
  ) {}

  /** Calls the request may still need: its estimate less what it has read or been given otherwise. */
  stillNeeded(): number {
    const answered = this.cacheHits + this.deduplicated + (this.hold?.taken ?? 0);
    return Math.max(1, Math.min(this.estimatedCalls - answered, this.maxUpstreamCalls));
  }

  /** Counts a call about to be sent; throws CallCapReached, sending nothing, when the cap is reached. */
  countCall(): void {
    if (this.upstreamCalls >= this.maxUpstreamCalls)
      throw new CallCapReached(this.maxUpstreamCalls);
    this.upstreamCalls += 1;
  }
}
