/**
 * A calendar that runs `speed` times faster than real time, for every process
 * of a simulated deployment alike: `Date.now()` (and argument-less
 * `new Date()`) is `startAt + (real now − anchor) · speed`, where `anchor` is
 * one real instant all processes share. Timers, performance.now() and Redis
 * TTLs keep real time, as they do when a real calendar steps or runs fast:
 * the gateway must plan its day by the calendar and time its waits by the
 * timers, and a deployment simulated this way shows whether it does.
 */
import { calendarDate, RealDate } from './calendar-date.js';

export interface RunningClockSettings {
  /** Simulated epoch ms at the anchor. */
  readonly startAt: number;
  /** Real epoch ms at which the simulated calendar reads `startAt`. */
  readonly anchor: number;
  readonly speed: number;
}

export function installRunningClock({ startAt, anchor, speed }: RunningClockSettings): () => void {
  const now = (): number => Math.floor(startAt + (RealDate.now() - anchor) * speed);
  globalThis.Date = calendarDate(now);
  return () => {
    globalThis.Date = RealDate;
  };
}

/** The settings as environment variables, for the processes the harness spawns (running-clock-child.ts). */
export function runningClockEnv(settings: RunningClockSettings): Record<string, string> {
  return {
    SIMULATE_CLOCK_START: String(settings.startAt),
    SIMULATE_CLOCK_ANCHOR: String(settings.anchor),
    SIMULATE_CLOCK_SPEED: String(settings.speed),
  };
}
