/**
 * What a day's unspent refresh allowance gives first touches at one moment
 * (spending-plan.ts): a call not made by midnight is lost, so what the
 * refreshes will not need flows to first touches, but a part of the day is
 * kept for refreshes of popular records read late in it, so that one first
 * read late in a day otherwise spent is still refreshed rather than served
 * two refreshes old.
 *
 * The allowance flows with the last quarter of the day's expected demand,
 * and, once the sweep at the day's new generation is over, the part the
 * refreshes' own pace since will not need goes at once. Pure arithmetic on
 * the day's figures.
 */

/** Unspent refresh allowance is released to first touches once this share of the day's demand has passed. */
const RELEASE_FROM = 0.75;
/** The share of the day's demand, after the sweep, over which the refreshes show the pace of those to come. */
const PACE_SHOWN_OVER = 0.1;
/** How many more refreshes than today's pace so far implies the rest of the day keeps. */
const REFRESH_PACE_MARGIN = 1.25;

/**
 * Share of the day's calls kept for refreshes late in the day: two or three pages' refreshes at
 * 1,000 calls. Not kept whole: first touches take them over the day's last part, so that a day
 * that does not need them does not lose them at midnight.
 */
const LATE_REFRESH_SHARE = 0.01;
/** The share of the day's demand left when first touches start to take them, all by midnight. */
const LATE_REFRESHES_UNTIL = 0.05;

export interface RefreshDay {
  readonly dailyLimit: number;
  /** What today keeps for refreshes (the allowance, or on a first day the head's share of it). */
  readonly reserve: number;
  /** Refreshes made today. */
  readonly refreshed: number;
  /** The share of the day's expected demand passed, 0 … 1. */
  readonly demandPassed: number;
  /**
   * Today's sweep at the upstream's new generation, once it is over: the share of the day's
   * demand passed then and the refreshes made by then. Undefined until then.
   */
  readonly sweep?: { readonly demandPassed: number; readonly refreshed: number };
}

export interface RefreshRelease {
  /** Unspent allowance released to first touches so far. */
  readonly released: number;
  /**
   * Allowance neither spent nor released, and never less than the calls kept for late
   * refreshes (even once the allowance is spent): first touches cannot take it.
   */
  readonly heldBack: number;
}

/** The calls of a day kept for late refreshes. */
function lateRefreshCalls(dailyLimit: number): number {
  return Math.ceil(dailyLimit * LATE_REFRESH_SHARE);
}

export function refreshRelease(day: RefreshDay): RefreshRelease {
  const lateHeld = lateRefreshesHeld(day);
  const unspent = Math.max(0, day.reserve - day.refreshed);
  const releasable = Math.max(0, unspent - lateHeld);
  const byDemand = releasable * Math.max(0, (day.demandPassed - RELEASE_FROM) / (1 - RELEASE_FROM));
  const released = Math.max(byDemand, refreshSurplus(day, releasable));
  return { released, heldBack: Math.max(lateHeld, unspent - Math.floor(released)) };
}

/**
 * Of the calls kept for late refreshes, those first touches may not take for now: all of them
 * until the last part of the day's demand, none at its end (a refresh so late is rare, and a
 * call not made by midnight is lost).
 */
function lateRefreshesHeld(day: RefreshDay): number {
  const demandLeft = 1 - day.demandPassed;
  return Math.round(
    lateRefreshCalls(day.dailyLimit) * Math.min(1, demandLeft / LATE_REFRESHES_UNTIL),
  );
}

/**
 * The part of the unspent refresh allowance that the refreshes' pace since today's sweep will
 * not need, released at once rather than with the demand's last quarter. After the sweep,
 * refreshes follow the reads of held popular records, so the rest of the day is expected to ask
 * for as many as its share of the demand, at the pace since the sweep, and a quarter more. Only
 * once the sweep is over: it refreshes many records at once, and a day whose upstream refreshes
 * late must still have the calls for it; and counted from the sweep's end, since its refreshes
 * would make the pace look several times what it is (docs/decisions/refresh-release.md).
 */
function refreshSurplus(day: RefreshDay, releasable: number): number {
  const { sweep } = day;
  if (sweep === undefined) return 0;
  const since = day.demandPassed - sweep.demandPassed;
  if (since < PACE_SHOWN_OVER) return 0;
  const refreshedSince = Math.max(0, day.refreshed - sweep.refreshed);
  const expected = (refreshedSince * (1 - day.demandPassed)) / since;
  return Math.max(0, releasable - Math.ceil(expected * REFRESH_PACE_MARGIN));
}
