/**
 * Applies the day's spending plan (spending-plan.ts) to one upstream read:
 * whether a held record earns a refresh (it is among the most popular), and
 * the ceiling its call must stay under when it leaves. The ledger checks the
 * ceiling atomically with the count, so replicas cannot overspend a share
 * between them; a refusal tells the client when the plan would serve it.
 */
import type { BudgetLedger } from './budget.js';
import { UpstreamError } from './errors.js';
import type { Popularity } from './popularity.js';
import type { Ceiling, Purpose, SpendingPlan } from './spending-plan.js';

/** Asked this many times (decayed), a record has shown it is asked again: it may use the whole burst. */
const POPULAR_COUNT = 2;

export class Allocator {
  constructor(
    readonly plan: SpendingPlan,
    readonly popularity: Popularity,
    private readonly budget: BudgetLedger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** A held record from an older generation earns a refresh when it is among the most popular. */
  earnsRefresh(key: string): Promise<boolean> {
    return this.popularity.isHead(key, this.plan.headSize);
  }

  async ceiling(purpose: Purpose, key: string, keyId: string): Promise<Ceiling> {
    const [spent, popular] = await Promise.all([
      this.budget.spending(keyId),
      this.#isPopular(purpose, key),
    ]);
    return this.plan.ceiling(purpose, this.now(), spent, popular);
  }

  /** The error for a call the plan refused: RATE_LIMITED, with the time it would be served. */
  async refusal(key: string, keyId: string): Promise<UpstreamError> {
    const now = this.now();
    const [spent, popular] = await Promise.all([
      this.budget.spending(keyId),
      this.#isPopular('first-touch', key),
    ]);
    const resetsAt = this.plan.nextSlot(now, spent, popular).toISOString();
    return new UpstreamError(
      'RATE_LIMITED',
      `Today's upstream budget is planned over the whole day and cannot afford this record now; it can be read from ${resetsAt}`,
      { resetsAt },
    );
  }

  async #isPopular(purpose: Purpose, key: string): Promise<boolean> {
    if (purpose !== 'first-touch') return true;
    return (await this.popularity.count(key)) >= POPULAR_COUNT;
  }
}
