/**
 * When in the UTC day the records are asked for, as the plan expects it:
 * the pacing line of first touches follows the day's demand rather than the
 * clock, so that calls paced for a quiet afternoon are not left unspent
 * while a morning burst is refused, and an evening peak does not find its
 * calls spent on the morning's long tail.
 *
 * The expectation is yesterday's demand for first touches by hour (the
 * popularity store counts each record asked that the deployment did not
 * hold, served or refused), blended with the clock's straight line so that
 * a day unlike yesterday still finds calls left at every hour. It is the
 * demand for records not held, not every view: as the day's favourites come
 * to be held, its views ask for fewer new records, so first touches come
 * earlier in the day than views do. Without a yesterday (a new deployment,
 * a store that cannot tell), the line is the clock's.
 *
 * How much of the expectation is yesterday's depends on how alike the days
 * are: the clock keeps the share by which yesterday's demand differed from
 * the day before's (the total variation between their hourly shares), from
 * a twentieth to a quarter; without a day before to compare, a quarter. A
 * fixed share on the clock would be the price of a day unlike yesterday paid
 * every day, even by a burst that comes at the same hours every day.
 *
 * `firstDay`: no first touch was asked yesterday. For a new deployment,
 * nothing it holds is older than today, and of the refresh allowance only
 * the head can be needed today (records read before the upstream's daily
 * refresh); the rest is paced with the first touches from the start of the
 * day rather than released in its last quarter. A deployment whose yesterday
 * asked only for records it held is paced the same way: its refreshes are
 * still allowed (spending-plan.ts), only not held back from first touches.
 *
 * The runs behind these choices: docs/decisions/pacing-along-first-touch-demand.md.
 */

import { counts } from './demand-forecast.js';

/**
 * Share of the expectation taken from yesterday's hours when the day before cannot tell how
 * alike the days are, and the least it takes; the rest is the clock's line.
 */
export const YESTERDAY_WEIGHT = 0.75;
/** The most of it: however alike the days were, the clock keeps a twentieth. */
export const MOST_YESTERDAY_WEIGHT = 0.95;
const HOURS = 24;

export class DayShape {
  /** Cumulative expected share of the day's demand at the start of each hour, 0 … 1 (25 points). */
  readonly #points: readonly number[];

  private constructor(
    points: readonly number[],
    /** Nothing was asked yesterday: the deployment holds nothing older than today. */
    readonly firstDay: boolean,
    /** First touches asked yesterday by UTC hour; undefined: unknown. */
    readonly yesterday?: readonly number[],
  ) {
    this.#points = points;
  }

  /** The clock's line: demand expected evenly over the day. */
  static linear(firstDay = false): DayShape {
    return new DayShape(
      Array.from({ length: HOURS + 1 }, (_, hour) => hour / HOURS),
      firstDay,
    );
  }

  /**
   * From yesterday's demand by UTC hour (24 counts), weighed by how alike it was to the day
   * before's; undefined: unknown, the clock's line. A yesterday without demand is a first day.
   * Hostile counts (negative, not finite) count as none.
   */
  static fromYesterday(
    hours: readonly number[] | undefined,
    dayBefore?: readonly number[],
  ): DayShape {
    const yesterday = hourlyShares(hours);
    if (yesterday === undefined) return DayShape.linear(hours !== undefined);
    const weight = yesterdayWeight(yesterday, hourlyShares(dayBefore));
    const points = [0];
    let cumulative = 0;
    for (const [hour, share] of yesterday.entries()) {
      cumulative += share;
      const clock = (hour + 1) / HOURS;
      points.push(weight * cumulative + (1 - weight) * clock);
    }
    points[HOURS] = 1;
    return new DayShape(points, false, counts(hours as readonly number[]));
  }

  /** The share of the day's expected demand passed at `fraction` of the day (both 0 … 1). */
  progress(fraction: number): number {
    const at = Math.min(1, Math.max(0, fraction)) * HOURS;
    const hour = Math.min(HOURS - 1, Math.floor(at));
    const from = this.#points[hour] as number;
    const to = this.#points[hour + 1] as number;
    return from + (to - from) * (at - hour);
  }
}

/** Each hour's share of a day's demand (24 numbers summing to 1); undefined: no demand, or unknown. */
function hourlyShares(hours: readonly number[] | undefined): number[] | undefined {
  if (hours === undefined) return undefined;
  const asked = counts(hours);
  const total = asked.reduce((sum, count) => sum + count, 0);
  return total === 0 ? undefined : asked.map((count) => count / total);
}

/**
 * Yesterday's share of today's expectation: one less the total variation between yesterday's
 * hourly shares and the day before's (the part of a day's demand that moved to other hours
 * from one day to the next), within YESTERDAY_WEIGHT and MOST_YESTERDAY_WEIGHT.
 */
function yesterdayWeight(yesterday: readonly number[], dayBefore: readonly number[] | undefined) {
  if (dayBefore === undefined) return YESTERDAY_WEIGHT;
  const moved =
    yesterday.reduce((sum, share, hour) => sum + Math.abs(share - (dayBefore[hour] ?? 0)), 0) / 2;
  return Math.min(MOST_YESTERDAY_WEIGHT, Math.max(YESTERDAY_WEIGHT, 1 - moved));
}
