/**
 * How many first touches the rest of today is expected to ask: yesterday's
 * from this moment of the day on, scaled by how today's asks so far compare
 * with yesterday's by the same moment. Scaled, because as the deployment
 * comes to hold its audience's records, each day asks for fewer new ones
 * than the day before, and yesterday's rest of the day alone overstates
 * today's (docs/decisions/demand-forecast.md). Without a yesterday, from
 * today's own rate (`demandLeftFromToday`).
 *
 * It counts asks, not calls: a record refused and asked again counts each
 * time, so it overstates the calls serving the rest of the day would take
 * (the plan asks the calls left to cover only part of it: DEMAND_MARGIN in
 * spending-plan.ts). Pure arithmetic on the hourly counts.
 */

const HOURS = 24;

/**
 * Yesterday's asks by this moment and today's must both be at least this many before the two
 * are compared: a scale measured on a handful of asks is noise (on 50, about one in seven). A
 * count, not a share of yesterday's day, so that the night's first hours need not wait for it.
 */
const FEWEST_ASKED = 50;

/**
 * First touches the rest of today is expected to ask at `fraction` (0 … 1) of the UTC day, from
 * yesterday's and today's asks by hour (24 counts each; a hostile count is none); undefined
 * while the asks so far are too few to tell, or without a yesterday.
 */
export function demandLeft(
  yesterday: readonly number[],
  today: readonly number[],
  fraction: number,
): number | undefined {
  const { at, hour } = hourOf(fraction);
  const yesterdays = counts(yesterday);
  const total = sum(yesterdays);
  const yesterdayBy = sum(yesterdays.slice(0, hour)) + (yesterdays[hour] ?? 0) * (at - hour);
  const asked = sum(counts(today));
  if (total === 0 || yesterdayBy < FEWEST_ASKED || asked < FEWEST_ASKED) return undefined;
  return (asked / yesterdayBy) * (total - yesterdayBy);
}

/**
 * Without a yesterday (a new deployment's first day), the rest of the day is expected to ask at
 * the rate the day has kept so far (since the first hour it was served whole), and at most
 * FIRST_DAY_GROWTH times the last hour's rate: the evening audience's busiest hour asks about
 * twice what its mornings do. The lower of the two, because a record bought early has the rest
 * of the day to be asked again: the best plan without a prior buys most of its day by the middle
 * of the day's demand, and the last hour's rate alone would keep the morning's calls for an
 * evening that may ask less. An underestimate costs little: the line it opens lets through only
 * what is asked meanwhile, and closes again once the calls left no longer cover the rest. A
 * burst still meets a line that keeps calls for a day as busy as the burst: a first day cannot
 * tell the two apart.
 */
export const FIRST_DAY_GROWTH = 2;

/**
 * First touches the rest of today is expected to ask at `fraction` of the UTC day, from
 * today's asks by hour alone; undefined until two whole hours show the rate (the hour before
 * the last asked for something, so the deployment served the whole last hour).
 */
export function demandLeftFromToday(
  today: readonly number[],
  fraction: number,
): number | undefined {
  const { at, hour } = hourOf(fraction);
  const asked = counts(today);
  if (hour < 2 || (asked[hour - 2] ?? 0) === 0 || sum(asked) < FEWEST_ASKED) return undefined;
  const lastHour = (asked[hour] ?? 0) + (asked[hour - 1] ?? 0) * (1 - (at - hour));
  // The first hour that asked anything may have been served in part (a deployment started in
  // it): the day's rate is counted from the next.
  const first = asked.findIndex((count) => count > 0);
  const sinceFirst = sum(asked.slice(first + 1)) / (at - first - 1);
  return Math.min(FIRST_DAY_GROWTH * lastHour, sinceFirst) * (HOURS - at);
}

/** Where `fraction` (0 … 1, clamped) of the UTC day falls: in hours, and the hour it is in. */
function hourOf(fraction: number): { at: number; hour: number } {
  const at = Math.min(1, Math.max(0, fraction)) * HOURS;
  return { at, hour: Math.min(HOURS - 1, Math.floor(at)) };
}

/** The 24 hourly counts, a hostile one (negative, not finite) as none. */
export function counts(hours: readonly number[]): number[] {
  return Array.from({ length: HOURS }, (_, hour) => {
    const count = hours[hour] ?? 0;
    return Number.isFinite(count) && count > 0 ? count : 0;
  });
}

const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
