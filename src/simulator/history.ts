/**
 * Daily series and threshold crossings. A series is rebuilt from the current
 * totals backwards, so its last point always equals the current record and
 * total[i] = total[i - 1] + daily[i]. Before the 90-day window, growth is
 * modelled as total(u days earlier) = total0 * ((D - u) / D)^2, where D is
 * the number of days from the career start (or release) to the window start.
 */
import { HISTORY_DAYS } from './model.js';
import { unitHash } from './prng.js';

const DAILY_NOISE = 0.08;
const LAST_INDEX = HISTORY_DAYS - 1;

export interface Series {
  readonly firstDay: number;
  readonly total: readonly number[];
  readonly daily: readonly number[];
}

export interface Crossing {
  readonly day: number;
  readonly value: number;
}

/** Daily value d days before the last day; the noise is keyed so it is identical on every call. */
export function dailyAt(
  daily: number,
  momentum: number,
  noiseKey: number,
  noiseSub: number,
  d: number,
): number {
  if (d === 0) return daily;
  const trend = momentum ** (-d / LAST_INDEX);
  const noise = 1 + DAILY_NOISE * (unitHash(noiseKey, noiseSub, d) * 2 - 1);
  return Math.floor(daily * trend * noise);
}

/** Sum of the daily values over `days` days ending at the last day. */
export function dailySum(
  daily: number,
  momentum: number,
  noiseKey: number,
  noiseSub: number,
  days: number,
): number {
  let sum = 0;
  for (let d = 0; d < days; d += 1) sum += dailyAt(daily, momentum, noiseKey, noiseSub, d);
  return sum;
}

export function buildSeries(
  total: number,
  daily: number,
  momentum: number,
  noiseKey: number,
  noiseSub: number,
  lastDay: number,
  startDay: number,
): Series {
  const firstDay = Math.max(lastDay - LAST_INDEX, startDay);
  const length = lastDay - firstDay + 1;
  const dailies = new Array<number>(length);
  const totals = new Array<number>(length);
  let running = total;
  for (let i = length - 1; i >= 0; i -= 1) {
    const value = dailyAt(daily, momentum, noiseKey, noiseSub, length - 1 - i);
    dailies[i] = value;
    totals[i] = running;
    running -= value;
  }
  return { firstDay, total: totals, daily: dailies };
}

/** Monthly listeners drift with half the stream momentum; no noise, so thresholds are crossed once. */
export function listenerSeries(listeners: number, momentum: number, length: number): number[] {
  const values = new Array<number>(length);
  for (let i = 0; i < length; i += 1) {
    const d = length - 1 - i;
    values[i] = d === 0 ? listeners : Math.floor(listeners * momentum ** ((-0.5 * d) / LAST_INDEX));
  }
  return values;
}

/**
 * The day a value last rose to `threshold` or above and stayed there, with the
 * value seen that day; null when the current value is below the threshold.
 */
export function crossing(
  values: readonly number[],
  firstDay: number,
  threshold: number,
  startDay: number,
): Crossing | null {
  const last = values.length - 1;
  const current = values[last];
  if (current === undefined || current < threshold) return null;
  let i = last;
  while (i > 0 && (values[i - 1] ?? 0) >= threshold) i -= 1;
  const atStart = values[i] ?? current;
  if (i > 0) return { day: firstDay + i, value: atStart };
  const span = firstDay - startDay;
  if (span <= 0) return { day: firstDay, value: atStart };
  const daysEarlier = Math.floor(span * (1 - Math.sqrt(threshold / atStart)));
  const value = Math.max(threshold, Math.ceil(atStart * ((span - daysEarlier) / span) ** 2));
  return { day: firstDay - daysEarlier, value };
}
