/** Dates are handled as UTC epoch days (integers) and printed as YYYY-MM-DD. */

const MS_PER_DAY = 86_400_000;
const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export function parseDay(text: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (!DATE_PATTERN.test(text) || Number.isNaN(ms) || formatDay(ms / MS_PER_DAY) !== text) {
    throw new Error(`dataDate must be a valid date in the form YYYY-MM-DD: ${text}`);
  }
  return ms / MS_PER_DAY;
}

export function formatDay(day: number): string {
  return new Date(day * MS_PER_DAY).toISOString().slice(0, 10);
}

export function utcDayOf(date: Date): number {
  return Math.floor(date.getTime() / MS_PER_DAY);
}

/** Epoch day 0 (1970-01-01) was a Thursday, so Fridays are the days congruent to 1 mod 7. */
export function lastFridayOnOrBefore(day: number): number {
  return day - ((((day - 1) % 7) + 7) % 7);
}

export function yearOf(day: number): number {
  return new Date(day * MS_PER_DAY).getUTCFullYear();
}
