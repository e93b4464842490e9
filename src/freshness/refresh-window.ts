/**
 * When the upstream's next daily refresh is expected, learned from when the
 * current one was seen: the same time of day, a day later, from as early as
 * it may have happened (the poll before the one that saw it). Within that
 * window the refresh poll runs at a dense cadence, so that the refresh is
 * seen within minutes; and until it is seen, a held record one generation
 * behind is read as two behind (entry-state.ts), so that no reader is shown
 * data two refreshes old in the minutes between the upstream's refresh and
 * the poll that sees it. The window closes soon after the time the refresh
 * was seen the day before: a refresh later than that is seen by the steady
 * poll, and the next day's window, learned from it, is wider; an upstream
 * that skipped a day is not expected again until it refreshes.
 *
 * Calendar values only: the window is made of instants and spans of the
 * gateway's calendar (which may run faster than its timers: the margin is
 * a share of the window's own span, never a timer's duration); the dense
 * cadence itself is a duration the poll's timers keep.
 */
const DAY_MS = 24 * 60 * 60 * 1000;

/** Polls per interval at the dense cadence. */
const DENSE_POLLS_PER_INTERVAL = 12;

/** The window stays open past the time the refresh was seen the day before: this share of the span it was seen within… */
const LATER_SHARE = 0.5;
/** …and at least this many dense polls. */
const DENSE_POLLS_AFTER = 3;

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
  readonly seenBy?: 'steady' | 'dense';
}

/** The window the refresh after `current` is expected in; undefined when no refresh was seen to learn from. */
export function nextRefreshWindow(current: SeenRefresh): RefreshWindow | undefined {
  if (current.id === 0 || current.seenWithinMs === undefined) return undefined;
  const seenAt = Date.parse(current.seenAt);
  if (Number.isNaN(seenAt)) return undefined;
  // How long a dense poll's spacing is on the calendar: the span itself when a dense poll saw it.
  const dense =
    current.seenBy === 'dense'
      ? current.seenWithinMs
      : current.seenWithinMs / DENSE_POLLS_PER_INTERVAL;
  // The upstream may refresh a little earlier or later than the day before, and a poll run late.
  const later = Math.max(current.seenWithinMs * LATER_SHARE, DENSE_POLLS_AFTER * dense);
  return {
    opensAt: seenAt + DAY_MS - current.seenWithinMs - dense,
    closesAt: seenAt + DAY_MS + later,
  };
}

export function isOpen(window: RefreshWindow, now: Date): boolean {
  const at = now.getTime();
  return at >= window.opensAt && at < window.closesAt;
}
