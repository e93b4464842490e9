/**
 * The two ways a caller's reads are spent, as objects chosen once per caller
 * (`policyFor`): under the day's plan (the gateway's own key with
 * BUDGET_PLAN), or under the daily limit alone (a client's key, or the
 * gateway's key without a plan). Each names its table (read-table.ts), the
 * inputs only it can tell (a record's place, the day's allowance), how a
 * call is taken from the day, and what it sweeps at a new generation. No
 * other module asks whether the plan is on.
 */
import { type Allocator, PlanDeferral } from '../economy/allocator.js';
import type { BudgetLedger, Spender } from '../economy/ledger.js';
import type { Purpose } from '../economy/spending-plan.js';
import type { Caller } from './caller.js';
import { type SweepReads, sweepPopular } from './popular-sweep.js';
import {
  type Allowance,
  DAILY_LIMIT_TABLE,
  PLAN_TABLE,
  type Place,
  type Row,
} from './read-table.js';
import type { RequestSpending } from './request-spending.js';
import type { OpenHolds } from './whole-request-hold.js';

/**
 * Share of the day's budget kept for reads nothing cached can answer: below
 * it, without the plan, answers of the previous generation are served on
 * instead of refreshed.
 */
export const REVALIDATION_RESERVE_SHARE = 0.1;

export interface ReadPolicy {
  readonly name: 'plan' | 'daily-limit';
  readonly table: readonly Row[];
  /** Where the record `key` stands in the caller's plan. */
  place(key: string, caller: Caller): Promise<Place>;
  /** What is left of the caller's day, for the rows that depend on it. */
  allowance(caller: Caller): Promise<Allowance>;
  /** Takes one call of `purpose` from the day; resolves with the UTC day it counts on, or throws the refusal. */
  reserve(caller: Caller, purpose: Purpose, key: string): Promise<string>;
  /**
   * A first touch of a request that takes its calls together, taken from its hold before the
   * read queues (resolves with the UTC day it counts on); undefined when the call is paid for in
   * its slot like any other.
   */
  prepaid(
    caller: Caller,
    spending: RequestSpending,
    purpose: Purpose,
    key: string,
    holds: OpenHolds,
  ): Promise<string | undefined>;
  /** The sweep at a new generation; resolves with the refreshes it started, once they are back. */
  sweep(caller: Caller, reads: SweepReads): Promise<number>;
}

/** The day's plan: records by popularity, first touches paced and held together. */
export class PlanPolicy implements ReadPolicy {
  readonly name = 'plan';
  readonly table = PLAN_TABLE;

  constructor(private readonly allocator: Allocator) {}

  async place(key: string, caller: Caller): Promise<Place> {
    const lag = await this.allocator.heldLag(key, caller.keyId);
    if (lag === 0) return 'head';
    return lag === Number.POSITIVE_INFINITY ? 'tail' : 'kept';
  }

  /** The plan keeps its own share for each purpose, checked as a call leaves. */
  async allowance(): Promise<Allowance> {
    return 'open';
  }

  reserve(caller: Caller, purpose: Purpose, key: string): Promise<string> {
    return this.allocator.reserve(spenderOf(caller), purpose, key);
  }

  async prepaid(
    caller: Caller,
    spending: RequestSpending,
    purpose: Purpose,
    key: string,
    holds: OpenHolds,
  ): Promise<string | undefined> {
    const { hold } = spending;
    if (purpose !== 'first-touch' || hold === undefined) return undefined;
    const spender = spenderOf(caller);
    const { allocator } = this;
    return hold.take({
      need: () => spending.stillNeeded(),
      largest: allocator.plan.options.burst,
      reserve: (calls) => allocator.reserve(spender, purpose, key, calls),
      release: (calls, day) => allocator.releaseFirstTouches(spender, calls, day),
      holds,
      deferred: (error) => error instanceof PlanDeferral,
    });
  }

  sweep(caller: Caller, reads: SweepReads): Promise<number> {
    return sweepPopular(this.allocator, caller.keyId, reads);
  }
}

/** The daily limit alone: first come, first served, the last share of the day kept for new reads. */
export class DailyLimitPolicy implements ReadPolicy {
  readonly name = 'daily-limit';
  readonly table = DAILY_LIMIT_TABLE;

  constructor(private readonly budget: BudgetLedger) {}

  async place(): Promise<Place> {
    return 'unplanned';
  }

  async allowance(caller: Caller): Promise<Allowance> {
    const usage = await this.budget.usage(caller.keyId);
    return usage.remaining > Math.ceil(usage.dailyLimit * REVALIDATION_RESERVE_SHARE)
      ? 'open'
      : 'reserve';
  }

  reserve(caller: Caller): Promise<string> {
    return this.budget.reserve(spenderOf(caller));
  }

  async prepaid(): Promise<undefined> {
    return undefined;
  }

  async sweep(): Promise<number> {
    return 0;
  }
}

export function spenderOf(caller: Caller): Spender {
  return {
    keyId: caller.keyId,
    ...(caller.clientId === undefined ? {} : { clientId: caller.clientId }),
  };
}
