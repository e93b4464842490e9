/**
 * The daily upstream budget of each API key, counted by the gateway itself so
 * that `apiUsage` and the cost report need no upstream call. One seam, two
 * stores: in memory with an optional file (memory-budget.ts), and in Redis,
 * shared by every replica (redis-budget.ts).
 *
 * A call is counted when it leaves (in its connection slot), not when it is
 * queued, and the count is taken before it is sent: the day can never be
 * overrun, however many processes share it. A daily-limit 429 stops the key
 * until midnight UTC; any other 429 pauses it for its Retry-After.
 */
import { performance } from 'node:perf_hooks';
import { nextUtcMidnight, utcDay } from '../time.js';
import type { UpstreamError } from '../upstream/errors.js';
import { budgetSpent, keyPaused, type RateLimitKind } from '../upstream/rate-limits.js';
import type { Ceiling, DaySpending } from './spending-plan.js';

export interface BudgetUsage {
  readonly dailyLimit: number;
  readonly used: number;
  readonly remaining: number;
  readonly resetsAt: string;
}

/** Who spends: the key, and in server-key mode the client it is spent for (fairness). */
export interface Spender {
  readonly keyId: string;
  /** Hashed client identity; absent in pass-through mode, where each client has its own key. */
  readonly clientId?: string;
  /** The day's plan for this call (spending-plan.ts), checked with the count; absent: only the daily limit. */
  readonly ceiling?: Ceiling;
  /**
   * Calls taken at once, all or none (default 1): a request's first touches held together
   * (reads/whole-request-hold.ts), so that the plan spends on requests answered whole.
   */
  readonly calls?: number;
}

/** Calls given back (ledger.release): `calls` of the spender's, taken on `day`. */
export type Returned = Spender & { readonly calls: number; readonly day: string };

/** The plan's ceiling refused the call: the caller knows when it would be served. */
export class PlanRefusal extends Error {
  override readonly name = 'PlanRefusal';

  constructor(
    /** Set when the client's own share of first touches refused it: its first touches today. */
    readonly clientPaced?: number,
  ) {
    super(
      clientPaced === undefined
        ? 'Refused by the plan'
        : 'Refused by the client’s share of first touches',
    );
  }
}

export interface BudgetOptions {
  readonly dailyLimit: number;
  /** Largest part of the day one client may spend (server-key mode); 1 means no cap. */
  readonly clientShare: number;
  readonly now?: () => Date;
}

export interface BudgetLedger {
  /**
   * Takes one call (or `spender.calls`, all or none) from the day just before it leaves, and
   * resolves with that UTC day; throws RATE_LIMITED, or PlanRefusal when the plan's ceiling
   * cannot take them now.
   */
  reserve(spender: Spender): Promise<string>;
  /**
   * Gives back calls reserved and never made (what a request held and did not need) to `day`,
   * the day they were taken from, its counter and the client's counts. Once that day is over
   * they are dropped: it is never spent again, and no other day took them. Best effort: a
   * return that is lost leaves the day poorer, never richer.
   */
  release(returned: Returned): Promise<void>;
  /**
   * A call counted on `countedOn` leaves, or comes back, now. Should the UTC day have turned
   * since (it waited in a queue, or was on its way at midnight), the upstream may count it on
   * the new day, so it is counted there too, unchecked: it is made. Resolves with the day it
   * counts on now. Best effort, as a return: one that is lost leaves the new day a call short.
   */
  dayTurned(keyId: string, countedOn: string): Promise<string>;
  /** The upstream answered 429. Takes effect in this process at once, then for every replica. */
  rateLimited(keyId: string, error: UpstreamError): void;
  usage(keyId: string): Promise<BudgetUsage>;
  /**
   * The upstream rejected the key (401/403): its count goes, so that made-up
   * keys hold no room in the ledger (the memory ledger's is bounded) and
   * cannot crowd out keys the upstream accepts. A key that is refused has
   * nothing left to guard; should it come back, the upstream's own 429 stops it.
   */
  forget(keyId: string): Promise<void>;
  /** Today's calls of the key by counter, for the plan. */
  spending(keyId: string): Promise<DaySpending>;
  resetsAt(): string;
}

/** Largest number of calls one client may make in a day. */
export function clientCap(options: BudgetOptions): number {
  return options.clientShare >= 1
    ? options.dailyLimit
    : Math.max(1, Math.floor(options.dailyLimit * options.clientShare));
}

/**
 * What this process itself heard from the upstream: keys stopped for the
 * day and keys paused. Checked synchronously before anything else, so that a
 * 429 stops the very next call of this process even before the shared store
 * has been told.
 */
export class LocalStops {
  readonly #stoppedDay = new Map<string, string>();
  /** performance.now() deadlines: a pause is a duration, immune to wall clock steps. */
  readonly #pausedUntil = new Map<string, number>();

  constructor(private readonly now: () => Date) {}

  record(keyId: string, kind: RateLimitKind): void {
    if (kind.kind === 'daily') this.#stoppedDay.set(keyId, utcDay(this.now()));
    else
      this.#pausedUntil.set(
        keyId,
        Math.max(this.#pausedUntil.get(keyId) ?? 0, performance.now() + kind.ms),
      );
  }

  /** Throws the error the key's state calls for, if any. */
  check(keyId: string, resetsAt: string): void {
    if (this.#stoppedDay.get(keyId) === utcDay(this.now())) throw budgetSpent(resetsAt);
    const pausedFor = (this.#pausedUntil.get(keyId) ?? 0) - performance.now();
    if (pausedFor > 0) throw keyPaused(pausedFor, resetsAt);
    this.#pausedUntil.delete(keyId);
  }

  isStoppedToday(keyId: string): boolean {
    return this.#stoppedDay.get(keyId) === utcDay(this.now());
  }
}

/** Whether today's spending leaves room for `calls` more under `ceiling`. */
export function withinCeiling(
  ceiling: Ceiling | undefined,
  spent: DaySpending,
  calls = 1,
): boolean {
  return (
    ceiling === undefined ||
    (spent.used + calls <= ceiling.total && spent[ceiling.counter] + calls <= ceiling.limit)
  );
}

export function resetsAtOf(now: Date): string {
  return nextUtcMidnight(now).toISOString();
}
