/**
 * What one request may spend: upstream calls (its cap, its estimate, the
 * hold its first touches are taken from) and time (the stale grace, shared
 * by all its reads). Given whole when the request's context is made; the
 * read path draws on it. What the answer reports is apart (request-report.ts).
 */
import { RequestReport } from './request-report.js';
import type { WholeRequestHold } from './whole-request-hold.js';

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

export interface SpendingTerms {
  /** Real calls (cache hits and shared reads are free) the request may make. */
  readonly maxUpstreamCalls?: number;
  /**
   * The operation's calls in the worst case, asked for once, when first needed (the estimate
   * is read off the operation the context was made for).
   */
  readonly estimate?: () => number;
  /** The request's first touches are taken from the plan together (a GraphQL request; not a subscription's events, nor background reads). */
  readonly hold?: WholeRequestHold;
}

export class RequestSpending {
  readonly maxUpstreamCalls: number;
  readonly hold: WholeRequestHold | undefined;
  readonly #estimate: () => number;
  #estimated: number | undefined;
  /** When the request's stale grace ends (performance.now() ms), once a read of it has begun to wait. */
  #graceEndsAt: number | undefined;

  constructor(
    private readonly report: RequestReport,
    { maxUpstreamCalls = Number.POSITIVE_INFINITY, estimate = () => 1, hold }: SpendingTerms = {},
  ) {
    this.maxUpstreamCalls = maxUpstreamCalls;
    this.hold = hold;
    this.#estimate = estimate;
  }

  /** The operation's estimated calls in the worst case (its first call opens connections for the rest). */
  get estimatedCalls(): number {
    this.#estimated ??= this.#estimate();
    return this.#estimated;
  }

  /** Calls the request may still need: its estimate less what it has read or been given otherwise. */
  stillNeeded(): number {
    const { cacheHits, deduplicated } = this.report;
    const answered = cacheHits + deduplicated + (this.hold?.taken ?? 0);
    return Math.max(1, Math.min(this.estimatedCalls - answered, this.maxUpstreamCalls));
  }

  /**
   * Counts a call about to be sent and returns the request's calls so far; throws
   * CallCapReached, sending nothing, when the cap is reached.
   */
  countCall(): number {
    if (this.report.upstreamCalls >= this.maxUpstreamCalls)
      throw new CallCapReached(this.maxUpstreamCalls);
    this.report.upstreamCalls += 1;
    return this.report.upstreamCalls;
  }

  /** A call counted and then refused by the day: it did not leave. */
  uncountCall(): void {
    this.report.upstreamCalls -= 1;
  }

  /**
   * How long a read of this request may still wait for a refresh while a held entry could
   * answer: the grace runs once per request, from its first such wait, so that reads one after
   * another (an artist, then its songs) do not each wait it out.
   */
  graceLeft(graceMs: number): number {
    const now = performance.now();
    this.#graceEndsAt ??= now + graceMs;
    return Math.max(0, this.#graceEndsAt - now);
  }
}

/** One request's reads, as the read path takes them: what they report, and what they may spend. */
export interface RequestReads {
  readonly report: RequestReport;
  readonly spending: RequestSpending;
}

/** The reads of no GraphQL request (a refresh, the poll): unbounded, their report unread. */
export function backgroundReads(): RequestReads {
  const report = new RequestReport();
  return { report, spending: new RequestSpending(report) };
}
