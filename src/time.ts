/** A UTC day in milliseconds: for calendar arithmetic (UTC has no daylight saving), never for durations. */
export const DAY_MS = 86_400_000;

/** The upstream's day, and so its daily budget, turns over at midnight UTC. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** How much of the UTC day has passed at `now`, 0 at midnight to 1 at the next. */
export function fractionOfDay(now: Date): number {
  return 1 - (nextUtcMidnight(now).getTime() - now.getTime()) / DAY_MS;
}

/**
 * What is left of the UTC day at `now`, in ms: calendar arithmetic whose result
 * becomes a duration (a Redis TTL), so that no store has to agree with this
 * process's calendar about an instant.
 */
export function msUntilEndOfDay(now: Date): number {
  return Math.max(1, nextUtcMidnight(now).getTime() - now.getTime());
}

/** The UTC day of an instant as a count of days from the epoch: every UTC day is DAY_MS long in JS time. */
export function utcDayNumber(epochMs: number): number {
  return Math.floor(epochMs / DAY_MS);
}

/** The UTC day of `now` as YYYY-MM-DD. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/**
 * Whether `text` is a `YYYY-MM-DD` day that exists (`2026-02-30` does not).
 * Read from the characters, without a Date: it runs for every date the
 * upstream sends and every Date field the gateway answers (thousands per page).
 */
export function isCalendarDay(text: string): boolean {
  if (text.length !== 10 || text.charCodeAt(4) !== DASH || text.charCodeAt(7) !== DASH)
    return false;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const DASH = 0x2d;
const ZERO = 0x30;

/** The decimal number written at [from, to), or -1 when a character there is not a digit. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let index = from; index < to; index++) {
    const digit = text.charCodeAt(index) - ZERO;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}
