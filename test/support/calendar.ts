/**
 * Calendars for tests, built from the real `now`: a test that needs a day
 * gets today (or a day a known distance from it), never a fixed date that
 * the real clock of Redis, timers or the simulator will one day pass.
 */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;

/** Today (real, UTC) at `hour`:00, in epoch ms. */
export function todayAtUtc(hour: number): number {
  return Math.floor(Date.now() / DAY_MS) * DAY_MS + hour * HOUR_MS;
}

/**
 * The calendars a store that shares Redis must hold on: Redis's own, days
 * behind it (a restored VM) and more than a year ahead (a moved clock), each
 * at noon of its day.
 */
export const CALENDARS_AGAINST_REDIS: readonly (readonly [string, number])[] = [
  ["on Redis's calendar", 0],
  ["3 days behind Redis's calendar", -3 * DAY_MS],
  ["400 days ahead of Redis's calendar", 400 * DAY_MS],
];
