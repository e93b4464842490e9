/**
 * When in the UTC day the records are asked for, as the plan expects it
 * (issue 30): the pacing line of first touches follows the day's demand
 * rather than the clock. Paced by the clock alone, a morning burst (most
 * views between 06:00 and 09:00) met a line a third of the way up, and the
 * calls paced for the quiet afternoon went unspent; an evening peak spent
 * its morning's calls on the morning's long tail.
 *
 * The expectation is yesterday's demand for first touches by hour (the
 * popularity store counts each record asked that the deployment did not
 * hold, served or refused), blended with the clock's straight line so that
 * a day unlike yesterday still finds calls left at every hour. It is the
 * demand for records not held, not every view: as the day's favourites come
 * to be held, its views ask for fewer new records, so first touches come
 * earlier in the day than views do (paced along every view, an evening
 * day at 5,000 calls left 640 of them unspent while refusing 700 views;
 * now 220 and 590). Without a yesterday (a new deployment, a store that
 * cannot tell), the line is the clock's.
 *
 * `firstDay`: no first touch was asked yesterday. For a new deployment,
 * nothing it holds is older than today, and of the refresh allowance only
 * the head can be needed today (records read before the upstream's daily
 * refresh); the rest is paced with the first touches from the start of the
 * day rather than released in its last quarter (the cold first day reached
 * 0.85-0.94 of the clairvoyant allocator). A deployment whose yesterday
 * asked only for records it held is paced the same way: its refreshes are
 * still allowed (spending-plan.ts), only no longer held back from first
 * touches.
 */

/** Share of the expectation taken from yesterday's hours; the rest is the clock's line. */
export const YESTERDAY_WEIGHT = 0.75;
const HOURS = 24;

export class DayShape {
  /** Cumulative expected share of the day's demand at the start of each hour, 0 … 1 (25 points). */
  readonly #points: readonly number[];

  private constructor(
    points: readonly number[],
    /** Nothing was asked yesterday: the deployment holds nothing older than today. */
    readonly firstDay: boolean,
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
   * From yesterday's demand by UTC hour (24 counts); undefined: unknown, the clock's line.
   * A yesterday without demand is a first day. Hostile counts (negative, not finite) count as none.
   */
  static fromYesterday(hours: readonly number[] | undefined): DayShape {
    if (hours === undefined) return DayShape.linear();
    const counts = Array.from({ length: HOURS }, (_, hour) => {
      const count = hours[hour] ?? 0;
      return Number.isFinite(count) && count > 0 ? count : 0;
    });
    const total = counts.reduce((sum, count) => sum + count, 0);
    if (total === 0) return DayShape.linear(true);
    const points = [0];
    let cumulative = 0;
    for (const [hour, count] of counts.entries()) {
      cumulative += count;
      const clock = (hour + 1) / HOURS;
      points.push(YESTERDAY_WEIGHT * (cumulative / total) + (1 - YESTERDAY_WEIGHT) * clock);
    }
    points[HOURS] = 1;
    return new DayShape(points, false);
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
