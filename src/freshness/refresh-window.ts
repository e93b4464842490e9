/**
 * When the upstream's next daily refresh is expected, learned from when the
 * current one was seen: the same time of day, a day later, from as early as
 * it may have happened (`seenWithinMs` before it was seen). Within that
 * window the refresh poll runs at a dense cadence, so that the refresh is
 * seen within minutes; and until it is seen, a held record one generation
 * behind is read as two behind (entry-state.ts), so that no reader is shown
 * data two refreshes old in the minutes between the upstream's refresh and
 * the poll that sees it. The window closes a poll interval after the time
 * the refresh was seen the day before: an upstream that skipped a day is
 * not expected again until it refreshes.
 *
 * Calendar values only: the window is made of instants on the gateway's
 * calendar; the cadence itself is a duration the poll's timers keep.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Polls per interval at the dense cadence. */
const DENSE_POLLS_PER_INTERVAL = 12;

export interface RefreshWindow {
  /** Epoch ms, calendar: from when the next refresh may have happened. */
  readonly opensAt: number;
  /** Epoch ms, calendar: past this, the refresh is no longer expected. */
  readonly closesAt: number;
}

/** The poll's cadence while a refresh is expected. */
export function denseCadenceMs(pollIntervalMs: number): number {
  return Math.max(1, Math.floor(pollIntervalMs / DENSE_POLLS_PER_INTERVAL));
}

/** What a generation tells of the refresh that made it (generation.ts). */
export interface SeenRefresh {
  /** 0: the first poll's baseline, no refresh seen. */
  readonly id: number;
  readonly seenAt: string;
  readonly seenWithinMs?: number;
}

/** The window the refresh after `current` is expected in; undefined when no refresh was seen to learn from. */
export function nextRefreshWindow(
  current: SeenRefresh,
  pollIntervalMs: number,
): RefreshWindow | undefined {
  if (current.id === 0 || current.seenWithinMs === undefined) return undefined;
  const seenAt = Date.parse(current.seenAt);
  if (Number.isNaN(seenAt)) return undefined;
  const margin = denseCadenceMs(pollIntervalMs);
  return {
    opensAt: seenAt + DAY_MS - current.seenWithinMs - margin,
    closesAt: seenAt + DAY_MS + pollIntervalMs,
  };
}

export function isOpen(window: RefreshWindow, now: Date): boolean {
  const at = now.getTime();
  return at >= window.opensAt && at < window.closesAt;
}
