/**
 * How one UTC day of the gateway's key is spent. At the upstream's
 * scale no cache makes a day fit, so every call has a purpose and each
 * purpose a share:
 *
 * - `poll`: the refresh poll. The polls still to come today are reserved:
 *   nothing else may take the last of them (poll-reserve.ts).
 * - `refresh`: a record the deployment holds from an older generation, among
 *   the most popular. Not paced. The refresh allowance (`refreshAllowance`
 *   calls a day) buys this: the head (3 % of it, `headRecords`: the home
 *   page's lists and the very favourite) refreshed once per generation; the
 *   records after them, up to `keptRecords` (1.9 times the allowance),
 *   refreshed before they answer once two generations behind (so every
 *   other generation at most, when read), which costs the rest on average.
 *   The tiers follow the polls the day really has (below). On a first day
 *   (day-shape.ts) nothing held is older than today: only the head's share
 *   is kept for refreshes, and the rest is paced with the first touches. So
 *   no record that popular is ever more than one refresh old when it is
 *   read, and the tail is served from the generation it was read in until
 *   it climbs. A day on which many of those records fall behind at once may
 *   spend up to `keptRecords` on refreshes, and those past the allowance
 *   come out of the paced line.
 * - `first-touch`: a record never read, or a tail record (held, not popular
 *   enough to be refreshed, yet asked again past its TTL without a known
 *   generation). Paced over the day by its expected demand (day-shape.ts):
 *   when a share `d` of the day's demand has passed, at most
 *   `(limit − polls − refreshAllowance) · d + burst` of them. A burst of
 *   long-tail traffic cannot leave the rest of the day with nothing, and the
 *   burst lets a whole page (four records) through at once. A record asked
 *   again may buy half the day ahead of the line (`AHEAD_SHARE`).
 *
 * No client takes the pacing for itself (server-key mode): one client may
 * make at most `clientShare` of the first touches the line allows so far,
 * and never fewer than the burst, so that a single user is always served a
 * page while a client asking for made-up records cannot hold every other
 * client to the next slot all day.
 *
 * Records seen only once wait behind the others: they may not use the last
 * half of the burst, nor, at midnight, the last 30 % of the paced line (a
 * share that shrinks to nothing by the day's end). Of the day's many first
 * touches, a record asked twice is the one likely to be asked again, so it
 * is the better buy; what the records asked again do not take is the
 * one-timers' by midnight.
 *
 * Once the paced first touches left cover what the rest of the day is
 * expected to ask (demand-forecast.ts), nothing waits for the line, the
 * one-timers included: the line keeps calls for demand to come, and when
 * all of it can be served, a view refused now is lost for nothing.
 *
 * Unspent refresh allowance flows to first touches over the last quarter of
 * the day's demand: what the refreshes did not need is not lost at midnight.
 * Once the sweep at the day's new data is over, the part the refreshes'
 * pace since will not need goes at once.
 * But 1 % of the day is kept for late refreshes (first touches take it only
 * in the last 5 % of the day's demand), so that a popular record first read
 * late in a spent day is still refreshed (refresh-release.ts).
 *
 * The poll's reserve is the polls that will really come (poll-reserve.ts):
 * when today's cadence shows fewer than the interval implies, the calls that
 * frees go to the refresh allowance and the paced line alike.
 *
 * Everything here is calendar arithmetic from `Date` (the UTC day like the
 * upstream's reset) and the day's expected shape, so that every replica, and
 * a simulation that moves the clock, agree on the plan.
 */
import { fractionOfDay, nextUtcMidnight } from '../time.js';
import { DayShape } from './day-shape.js';
import { PollReserve } from './poll-reserve.js';
import { type RefreshRelease, refreshRelease } from './refresh-release.js';
import type { SweepMark } from './todays-sweep.js';

export type Purpose = 'poll' | 'refresh' | 'first-touch';

export interface PlanOptions {
  readonly dailyLimit: number;
  /** The refresh poll's interval; undefined: no poll, no reserve. */
  readonly pollIntervalMs: number | undefined;
  /** Share of the day's calls, after the poll's reserve, kept for refreshing the most popular records. */
  readonly headShare: number;
  /** First touches allowed ahead of the pacing line. */
  readonly burst: number;
  /** Largest part of the first touches paced so far that one client may make; absent or 1: no cap. */
  readonly clientShare?: number;
  /**
   * Where the sweep at the upstream's new data of `now`'s UTC day ended (todays-sweep.ts), once
   * it has: until then the refreshes it brings are still to come. Absent: never known, and the
   * refresh allowance is released with the day's last quarter only.
   */
  readonly sweptToday?: (now: Date) => SweepMark | undefined;
}

/** What the key has spent today, by counter (the ledger keeps them). */
export interface DaySpending {
  readonly used: number;
  readonly paced: number;
  readonly refreshed: number;
  readonly polled: number;
}

export type Counter = 'paced' | 'refreshed' | 'polled';

/** How the refresh allowance is spent (see the top of this file). */
export interface RefreshTiers {
  /** Refreshes a day, on average. */
  readonly refreshAllowance: number;
  /** The most popular records, refreshed once per generation. */
  readonly headRecords: number;
  /** The most popular records kept within one refresh of the upstream (the head included). */
  readonly keptRecords: number;
}

/**
 * The limits one call must stay under, checked atomically by the ledger with
 * the count: `used < total` and `spending[counter] < limit`, and for a
 * client's first touch its own first touches of the day `< clientLimit`. The
 * call adds one to `used`, to its counter and to the client's count.
 */
export interface Ceiling {
  readonly counter: Counter;
  readonly total: number;
  readonly limit: number;
  /** First touches one client may have made by now; absent: no cap. */
  readonly clientLimit?: number;
}

/**
 * Share of the day, after the polls, for refreshes: enough for the kept tier to hold the pages of
 * the audience's favourites with a margin (docs/decisions/refresh-tiers.md).
 */
export const DEFAULT_HEAD_SHARE = 0.3;
/**
 * The head, refreshed each generation, as a part of the refresh allowance: the home page's
 * lists and the very favourite. Every generation costs it a call a record, twice what a kept
 * record costs, so it is small; the guarantee (never two refreshes old) is the kept tier's.
 */
const HEAD_PART = 0.03;
/**
 * The records kept within one refresh, as a multiple of the refresh allowance: the head's, at
 * a call each a day, and the others' at half a call, 0.03 + 1.87 / 2, are about the allowance.
 */
const KEPT_PART = 1.9;
/** Enough for a whole artist page (profile, history, timeline, songs) and a list or two. */
export const MIN_BURST = 8;
export const DEFAULT_BURST_SHARE = 0.02;

/** The paced first touches a record asked once may use at midnight (all of them by the day's end). */
const ONCE_SHARE = 0.7;

/**
 * How far ahead of the day's expected demand a record asked again may buy: this share of the
 * day's paced first touches. A view refused now is lost, while one of the day's favourites
 * bought now answers all its views to come; the one-timers stay on the line, so the day is not
 * spent on them before its favourites are asked.
 */
export const AHEAD_SHARE = 0.5;

/**
 * The share of what the rest of the day is expected to ask (demand-forecast.ts) that the day's
 * paced first touches left must cover before none waits for the line. Less than all of it: the
 * forecast counts asks, and a record refused is asked again, so it overstates the calls serving
 * them would take; and the refresh allowance the day will not need is not among the calls left
 * until it is released, late in the day (docs/decisions/demand-forecast.md).
 */
export const DEMAND_MARGIN = 0.7;

/** A day expected to be asked for evenly, as the clock runs. */
const CLOCK = DayShape.linear();

export function defaultBurst(dailyLimit: number): number {
  return Math.max(MIN_BURST, Math.round(dailyLimit * DEFAULT_BURST_SHARE));
}

export class SpendingPlan {
  readonly #polls: PollReserve;
  readonly pollsPerDay: number;
  /**
   * The refresh tiers as the poll's interval implies them, until today's polls show their cadence
   * on the calendar (`tiers`): the refresh allowance, the head and the records kept.
   */
  readonly refreshAllowance: number;
  readonly headRecords: number;
  readonly keptRecords: number;
  /** The most records any day's tiers can keep (a day without polls): past it, the tail. */
  readonly mostRecordsKept: number;

  constructor(readonly options: PlanOptions) {
    this.#polls = new PollReserve(options.dailyLimit, options.pollIntervalMs);
    this.pollsPerDay = this.#polls.perDay;
    const byInterval = this.#tiersAfter(this.pollsPerDay);
    this.refreshAllowance = byInterval.refreshAllowance;
    this.headRecords = byInterval.headRecords;
    this.keptRecords = byInterval.keptRecords;
    this.mostRecordsKept = this.#tiersAfter(0).keptRecords;
  }

  /**
   * Today's refresh tiers: the allowance is a share of the day less the polls that really come
   * (a calendar running ahead of the poll's timer makes fewer than its interval implies, and
   * the calls they leave are refreshes' and first touches' alike).
   */
  tiers(now: Date, spent: DaySpending): RefreshTiers {
    return this.#tiersAfter(this.#polls.expected(now, spent.polled));
  }

  #tiersAfter(polls: number): RefreshTiers {
    const refreshAllowance = Math.floor((this.options.dailyLimit - polls) * this.options.headShare);
    return {
      refreshAllowance,
      // However small the allowance, the head holds the most asked record (the home page's list).
      headRecords: refreshAllowance > 0 ? Math.max(1, Math.floor(refreshAllowance * HEAD_PART)) : 0,
      keptRecords: Math.floor(refreshAllowance * KEPT_PART),
    };
  }

  /** First touches paced over today: the day less its polls (as today's cadence has them) and refreshes. */
  #pacedPerDay(now: Date, spent: DaySpending, shape: DayShape): number {
    const refreshes = Math.max(this.#refreshReserve(now, spent, shape), spent.refreshed);
    return Math.max(
      0,
      this.options.dailyLimit - this.#polls.expected(now, spent.polled) - refreshes,
    );
  }

  /** What today keeps for refreshes: the allowance, or on a first day the head's share of it. */
  #refreshReserve(now: Date, spent: DaySpending, shape: DayShape): number {
    const tiers = this.tiers(now, spent);
    return shape.firstDay ? tiers.headRecords : tiers.refreshAllowance;
  }

  /**
   * The ceiling for a call of `purpose` at `now`, given today's spending and its expected shape;
   * `popular`: the record was asked more than once; `demandLeft`: the first touches the rest of
   * the day is expected to ask (demand-forecast.ts), undefined when unknown.
   */
  ceiling(
    purpose: Purpose,
    now: Date,
    spent: DaySpending,
    popular: boolean,
    shape = CLOCK,
    demandLeft?: number,
  ): Ceiling {
    const { dailyLimit } = this.options;
    if (purpose === 'poll')
      return { counter: 'polled', total: dailyLimit, limit: this.pollsPerDay };
    const total = dailyLimit - this.#polls.left(now, spent.polled);
    const { keptRecords } = this.tiers(now, spent);
    if (purpose === 'refresh' && spent.refreshed < keptRecords)
      return { counter: 'refreshed', total, limit: keptRecords };
    const clientShare = this.options.clientShare ?? 1;
    return {
      counter: 'paced',
      total: total - this.#release(now, spent, shape).heldBack,
      limit: Math.floor(this.#firstTouchLimit(now, spent, popular, shape, demandLeft)),
      ...(clientShare < 1
        ? {
            clientLimit: Math.max(
              this.options.burst,
              Math.floor(clientShare * this.#line(now, spent, true, shape, 0)),
            ),
          }
        : {}),
    };
  }

  /**
   * When a first touch (or `calls` of them together) refused now would be
   * served: the moment the pacing line passes today's paced count by as many,
   * or the next UTC midnight when the day cannot afford them any more.
   */
  nextSlot(now: Date, spent: DaySpending, popular: boolean, calls = 1, shape = CLOCK): Date {
    return this.#whenLineReaches(spent.paced + calls, now, spent, popular, shape, ahead(popular));
  }

  /** When a client that has made `clientPaced` first touches today may make one more. */
  nextClientSlot(now: Date, spent: DaySpending, clientPaced: number, shape = CLOCK): Date {
    const clientShare = this.options.clientShare ?? 1;
    return this.#whenLineReaches((clientPaced + 1) / clientShare, now, spent, true, shape, 0);
  }

  /**
   * The first millisecond, a second from now at the soonest, at which the line reaches `line`
   * with today's spending as it is; midnight when it does not today. The line only rises with
   * time, so a bisection finds it, and the moment named is one at which the line is there.
   */
  #whenLineReaches(
    line: number,
    now: Date,
    spent: DaySpending,
    popular: boolean,
    shape: DayShape,
    aheadShare: number,
  ): Date {
    const midnight = nextUtcMidnight(now).getTime();
    const reaches = (at: number) =>
      this.#line(new Date(at), spent, popular, shape, aheadShare) >= line;
    let early = now.getTime() + 1_000;
    let late = midnight - 1;
    if (early >= late || !reaches(late)) return new Date(midnight);
    if (reaches(early)) return new Date(early);
    while (late - early > 1) {
      const middle = Math.floor((early + late) / 2);
      if (reaches(middle)) late = middle;
      else early = middle;
    }
    return new Date(late);
  }

  /**
   * First touches the plan allows by `now`. A record asked once may use a share of the paced
   * part that grows from ONCE_SHARE at midnight to all of it at the day's end: what is left
   * meanwhile is there for the records asked again, the better buys, and what they do not take
   * is the one-timers' by midnight. A
   * record asked again may buy `aheadShare` of the day ahead of its expected demand; a client's
   * share is of the line itself, so that no one client takes the day ahead of time.
   */
  #line(
    now: Date,
    spent: DaySpending,
    popular: boolean,
    shape: DayShape,
    aheadShare = ahead(popular),
  ): number {
    const progress = shape.progress(fractionOfDay(now));
    const reach = Math.min(1, progress + aheadShare);
    const share = popular ? 1 : ONCE_SHARE + (1 - ONCE_SHARE) * progress;
    return (
      this.#pacedPerDay(now, spent, shape) * reach * share +
      this.#offset(now, spent, popular, shape)
    );
  }

  /**
   * The first touches the plan allows by `now`: the line (below); or, while the day's paced
   * first touches left cover what the rest of the day is expected to ask (`demandLeft`,
   * DEMAND_MARGIN of it), every first touch the day paces, the one-timers included, since a
   * call not made by midnight is lost. A refusal's `resetsAt` is still the line's: the forecast
   * may open the line sooner, never later.
   */
  #firstTouchLimit(
    now: Date,
    spent: DaySpending,
    popular: boolean,
    shape: DayShape,
    demandLeft: number | undefined,
  ): number {
    if (demandLeft !== undefined) {
      const dayPaced = this.#pacedPerDay(now, spent, shape) + this.#offset(now, spent, true, shape);
      if (dayPaced - spent.paced >= demandLeft * DEMAND_MARGIN) return dayPaced;
    }
    return this.#line(now, spent, popular, shape);
  }

  /** The line beyond the pace itself: the burst, and the refresh allowance released to first touches. */
  #offset(now: Date, spent: DaySpending, popular: boolean, shape: DayShape): number {
    const burst = popular ? this.options.burst : Math.ceil(this.options.burst / 2);
    return burst + this.#release(now, spent, shape).released;
  }

  /** What the unspent refresh allowance gives first touches now (refresh-release.ts). */
  #release(now: Date, spent: DaySpending, shape: DayShape): RefreshRelease {
    const sweep = this.options.sweptToday?.(now);
    return refreshRelease({
      dailyLimit: this.options.dailyLimit,
      reserve: this.#refreshReserve(now, spent, shape),
      refreshed: spent.refreshed,
      demandPassed: shape.progress(fractionOfDay(now)),
      ...(sweep === undefined
        ? {}
        : {
            sweep: {
              demandPassed: shape.progress(fractionOfDay(sweep.at)),
              refreshed: sweep.refreshed,
            },
          }),
    });
  }
}

/** How far ahead of the day's expected demand a record may buy: a record asked again, AHEAD_SHARE. */
const ahead = (popular: boolean): number => (popular ? AHEAD_SHARE : 0);

/** Calendar arithmetic the allocator shares with the plan (it lives in time.ts). */
export { fractionOfDay };
