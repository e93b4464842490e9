/**
 * The refresh poll's part of the day (spending-plan.ts): the polls still to
 * come today are reserved, so that nothing else takes the last of them, and
 * however short its interval the poll takes at most a quarter of the day.
 *
 * The reserve is the polls that will really come. The configured interval is
 * a timer's, and a timer's interval is not a span of the calendar: a poll
 * skipped or paused, a lease held elsewhere, a calendar that runs ahead of the
 * timers (a stepped clock; a simulation that moves the calendar) all make
 * fewer polls in a UTC day than the interval implies. Once today has seen two
 * polls, the polls still to come are extrapolated from today's own cadence on
 * the calendar, whichever is fewer; the calls that frees go to the rest of the
 * plan, not to midnight.
 */
import { DAY_MS, fractionOfDay, nextUtcMidnight } from '../time.js';

/** The poll never takes more of the day than this, however short its interval. */
export const MAX_POLL_SHARE = 0.25;

/** Today's polls that show the poll's cadence on the calendar. */
const MEASURED_POLLS = 2;

export class PollReserve {
  /** The polls a day by the interval, within MAX_POLL_SHARE of the day; 0 without a poll. */
  readonly perDay: number;

  /** `intervalMs`: the refresh poll's interval; undefined: no poll, no reserve. */
  constructor(
    dailyLimit: number,
    private readonly intervalMs: number | undefined,
  ) {
    this.perDay =
      intervalMs === undefined
        ? 0
        : Math.min(Math.floor(dailyLimit * MAX_POLL_SHARE), Math.ceil(DAY_MS / intervalMs));
  }

  /** Today's polls in all, given the `polled` so far: by the interval, or by today's cadence once it shows. */
  expected(now: Date, polled: number): number {
    const byCadence = this.#byCadence(now, polled);
    return byCadence === undefined ? this.perDay : Math.min(this.perDay, polled + byCadence);
  }

  /** Polls still to come today, as far as their share allows: by the interval, or by today's cadence. */
  left(now: Date, polled: number): number {
    if (this.intervalMs === undefined) return 0;
    const msLeft = nextUtcMidnight(now).getTime() - now.getTime();
    return Math.max(
      0,
      Math.min(
        this.perDay - polled,
        Math.ceil(msLeft / this.intervalMs),
        this.#byCadence(now, polled) ?? Number.POSITIVE_INFINITY,
      ),
    );
  }

  /**
   * The polls still to come today at the cadence today's polls have kept on the calendar (one
   * more for the phase), once there are two to measure it by; undefined before.
   */
  #byCadence(now: Date, polled: number): number | undefined {
    if (this.intervalMs === undefined || polled < MEASURED_POLLS) return undefined;
    const elapsed = fractionOfDay(now);
    if (elapsed <= 0) return undefined;
    return Math.ceil((polled * (1 - elapsed)) / elapsed) + 1;
  }
}
