/**
 * Applies the day's spending plan (spending-plan.ts) to one upstream read:
 * whether a held record earns a refresh (it is among the most popular), and
 * the ceiling its call must stay under when it leaves. The ledger checks the
 * ceiling atomically with the count, so replicas cannot overspend a share
 * between them (a client's share of the first touches included); a refusal
 * tells the client when the plan would serve it.
 */

import { utcDay } from '../time.js';
import { UpstreamError } from '../upstream/errors.js';
import { DayShape } from './day-shape.js';
import { demandLeft, demandLeftFromToday } from './demand-forecast.js';
import { type BudgetLedger, PlanRefusal, type Spender } from './ledger.js';
import { LIKELY_READ_TODAY, type Popularity } from './popularity.js';
import {
  type DaySpending,
  fractionOfDay,
  type Purpose,
  type RefreshTiers,
  type SpendingPlan,
} from './spending-plan.js';

/**
 * The plan cannot afford the call now, though it could later today (unlike a day spent, a pause,
 * or a count that cannot be recorded): a request holding its calls together may wait for
 * another's to come back (reads/whole-request-hold.ts).
 */
export class PlanDeferral extends UpstreamError {}

const NOTHING_SPENT: DaySpending = { used: 0, paced: 0, refreshed: 0, polled: 0 };

/** Asked this many times (decayed), a record has shown it is asked again: it may use the whole burst. */
const POPULAR_COUNT = 2;

/**
 * How long today's demand by hour, as read, stands for it: as long as the Redis store keeps its
 * counts before sending them (redis-popularity.ts), for the same reason.
 */
const TODAY_DEMAND_REFRESH_MS = 100;

export class Allocator {
  /** Today's expected shape, learnt once a day from yesterday's demand (undefined until asked). */
  #shape: { readonly day: string; readonly shape: Promise<DayShape> } | undefined;
  /** Today's demand by hour as last read (`at`: performance.now()). */
  #today:
    | {
        readonly day: string;
        readonly at: number;
        readonly hours: Promise<readonly number[] | undefined>;
      }
    | undefined;

  constructor(
    readonly plan: SpendingPlan,
    readonly popularity: Popularity,
    private readonly budget: BudgetLedger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * How far behind a held record may fall before its popularity earns it a
   * refresh today: the head is refreshed once per generation (0: as soon as
   * it is behind at all), the records after it when two generations behind
   * (1: one refresh old is allowed), the tail never (Infinity: it is served
   * as held until it climbs). The day's spending is read only for records
   * within the most records the tiers can ever keep.
   */
  async heldLag(key: string, keyId: string): Promise<number> {
    const rank = await this.popularity.rank(key);
    if (rank >= this.plan.mostRecordsKept) return Number.POSITIVE_INFINITY;
    const { headRecords, keptRecords } = await this.tiers(keyId);
    if (rank < headRecords) return 0;
    return rank < keptRecords && (await this.likelyReadToday(key)) ? 1 : Number.POSITIVE_INFINITY;
  }

  /**
   * Whether a record within the kept tier by its rank is asked often enough to be kept (here,
   * and by the sweep at a new generation, popular-sweep.ts): about once a day
   * (LIKELY_READ_TODAY). Where the tier is large, its edge lies among records asked less, which
   * the view being answered carries inside; kept, each would be refreshed for readers who
   * seldom come back (docs/decisions/rank-counts-the-view-being-answered.md).
   */
  async likelyReadToday(key: string): Promise<boolean> {
    return (await this.popularity.count(key)) >= LIKELY_READ_TODAY;
  }

  /** Today's refresh tiers for the key `keyId` (by the polls today really has). */
  async tiers(keyId: string): Promise<RefreshTiers> {
    return this.plan.tiers(this.now(), await this.budget.spending(keyId));
  }

  /**
   * Takes one call of `purpose` from the day, under the plan's ceiling for
   * it (checked by the ledger with the count). A refusal by the plan is
   * RATE_LIMITED, with the time the call would be served. Resolves with the day it counts on.
   */
  async reserve(spender: Spender, purpose: Purpose, key: string, calls = 1): Promise<string> {
    const now = this.now();
    const [spent, popular, shape, today] = await Promise.all([
      this.budget.spending(spender.keyId),
      this.#isPopular(purpose, key),
      this.shapeOf(now),
      purpose === 'first-touch' ? this.#demandToday(now) : undefined,
    ]);
    const left =
      today &&
      (shape.yesterday
        ? demandLeft(shape.yesterday, today, fractionOfDay(now))
        : demandLeftFromToday(today, fractionOfDay(now)));
    try {
      return await this.budget.reserve(
        Object.assign({}, spender, {
          ceiling: this.plan.ceiling(purpose, now, spent, popular, shape, left),
          calls,
        }),
      );
    } catch (error) {
      if (!(error instanceof PlanRefusal)) throw error;
      if (error.clientPaced !== undefined) {
        const resetsAt = this.plan
          .nextClientSlot(now, spent, error.clientPaced, shape)
          .toISOString();
        throw new UpstreamError(
          'RATE_LIMITED',
          `This client has made its share of the records first read so far today (${error.clientPaced}); others are served meanwhile. It can read a new record from ${resetsAt}; cached data is still served`,
          { resetsAt },
        );
      }
      const resetsAt = this.plan.nextSlot(now, spent, popular, calls, shape).toISOString();
      throw new PlanDeferral(
        'RATE_LIMITED',
        calls === 1
          ? `Today's upstream budget is planned over the whole day and cannot afford this record now; it can be read from ${resetsAt}`
          : `Today's upstream budget is planned over the whole day and cannot afford this request's ${calls} new records together now; they can be read from ${resetsAt}`,
        { resetsAt },
      );
    }
  }

  /** Gives back `calls` first touches taken on `day` and never made (what a request held and did not need). */
  async releaseFirstTouches(spender: Spender, calls: number, day: string): Promise<void> {
    // A first touch is counted as paced, under the client's cap when there is one, whatever the
    // day has spent: the ceiling of an empty day names both without reading the ledger.
    const ceiling = this.plan.ceiling('first-touch', this.now(), NOTHING_SPENT, true);
    await this.budget.release(Object.assign({}, spender, { ceiling, calls, day }));
  }

  /**
   * The expected shape of `now`'s UTC day (day-shape.ts), asked of the popularity store once a
   * day; a store that cannot tell is asked again at the next call.
   */
  shapeOf(now: Date): Promise<DayShape> {
    const day = utcDay(now);
    if (this.#shape?.day === day) return this.#shape.shape;
    const shape = this.popularity.recentDemandByHour().then((recent) => {
      if (recent === undefined && this.#shape?.day === day) this.#shape = undefined;
      return DayShape.fromYesterday(recent?.yesterday, recent?.dayBefore);
    });
    this.#shape = { day, shape };
    return shape;
  }

  /** Whether today is a first day (day-shape.ts): nothing held is older than today. */
  async firstDay(): Promise<boolean> {
    return (await this.shapeOf(this.now())).firstDay;
  }

  /**
   * Today's first touches asked by hour, read at most once every TODAY_DEMAND_REFRESH_MS: the
   * forecast moves with the day's hours, not with each call.
   */
  #demandToday(now: Date): Promise<readonly number[] | undefined> {
    const day = utcDay(now);
    const cached = this.#today;
    if (
      cached !== undefined &&
      cached.day === day &&
      performance.now() - cached.at < TODAY_DEMAND_REFRESH_MS
    )
      return cached.hours;
    const hours = this.popularity.demandToday().catch(() => undefined);
    this.#today = { day, at: performance.now(), hours };
    return hours;
  }

  async #isPopular(purpose: Purpose, key: string): Promise<boolean> {
    if (purpose !== 'first-touch') return true;
    return (await this.popularity.count(key)) >= POPULAR_COUNT;
  }
}
