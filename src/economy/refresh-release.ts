/**
 * What a day's unspent refresh allowance gives first touches at one moment
 * (spending-plan.ts): a call not made by midnight is lost, so what the
 * refreshes will not need flows to first touches, but a part of the day is
 * kept for refreshes of popular records read late in it, so that one first
 * read late in a day otherwise spent is still refreshed rather than served
 * two refreshes old.
 *
 * The allowance flows with the last quarter of the day's expected demand,
 * and, once the day's new data is known, the part today's own pace of
 * refreshes will not need goes at once. Pure arithmetic on the day's figures.
 */

/** Unspent refresh allowance is released to first touches once this share of the day's demand has passed. */
const RELEASE_FROM = 0.75;
/** The share of the day's demand past which today's refreshes show the pace of those to come. */
const PACE_SHOWN_FROM = 0.2;
/** How many more refreshes than today's pace so far implies the rest of the day keeps. */
const REFRESH_PACE_MARGIN = 1.25;

/**
 * Share of the day's calls kept for refreshes late in the day: two or three pages' refreshes at
 * 1,000 calls. Kept whole, the 10 calls were lost on the days that did not need them (985 of
 * 1,000 spent), so first touches take them over the day's last part.
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
  /** The upstream's new data of today is known (and with it the sweep of refreshes it brings). */
  readonly newDataSeen: boolean;
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
 * The part of the unspent refresh allowance that today's own pace of refreshes will not need,
 * released at once rather than with the demand's last quarter. Refreshes follow the reads of
 * held popular records, so the rest of the day is expected to ask for as many again as its
 * share of the demand, and a quarter more. Only once today's new data is known: the sweep at a
 * new generation refreshes many records at once, and a day whose upstream refreshes late must
 * still have the calls for it. At 5,000 calls the allowance is about 1,500 calls and the days
 * needed 700-1,150; released in the last quarter of the demand, what they left was partly lost
 * (a uniform day spent 4,740-4,900 calls while refusing 230-580 views).
 */
function refreshSurplus(day: RefreshDay, releasable: number): number {
  if (day.demandPassed < PACE_SHOWN_FROM || !day.newDataSeen) return 0;
  const expected = (day.refreshed * (1 - day.demandPassed)) / day.demandPassed;
  return Math.max(0, releasable - Math.ceil(expected * REFRESH_PACE_MARGIN));
}
