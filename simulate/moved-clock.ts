/**
 * A moved calendar for the whole process: the global `Date` is replaced by a
 * proxy whose `Date.now()` and argument-less `new Date()` read the real clock
 * plus an offset that only grows. Timers, performance.now() and Redis TTLs
 * keep running in real time; every calendar value (the budget's UTC day,
 * generation ages, resetsAt, the simulator's data day) follows the simulated
 * one. `Date.UTC`, `Date.parse`, `instanceof Date` and dates built from
 * arguments are untouched.
 */

import { nextUtcMidnight } from '../src/time.js';
import { calendarDate, RealDate } from './calendar-date.js';

export interface MovedClock {
  /** Simulated epoch milliseconds now. */
  now(): number;
  /** Moves the calendar forward to `epochMs`; never backwards (an earlier time is ignored). */
  advanceTo(epochMs: number): void;
  /** Puts the real `Date` back. */
  restore(): void;
}

let installed: MovedClock | undefined;

/**
 * Installs the moved clock, starting at `startAt` (epoch ms; by default the
 * next real UTC midnight, so that a simulation starts with a whole day). It
 * may start behind the real calendar too: nothing the gateway sends to Redis
 * is an instant of its calendar, so Redis's own clock never has to agree.
 */
export function installMovedClock(
  startAt: number = nextUtcMidnight(new RealDate(RealDate.now())).getTime(),
): MovedClock {
  if (installed !== undefined) throw new Error('the moved clock is already installed');
  let offsetMs = 0;
  const now = (): number => RealDate.now() + offsetMs;
  globalThis.Date = calendarDate(now);
  const clock: MovedClock = {
    now,
    advanceTo(epochMs) {
      const real = RealDate.now();
      if (epochMs > real + offsetMs) offsetMs = epochMs - real;
    },
    restore() {
      globalThis.Date = RealDate;
      installed = undefined;
    },
  };
  offsetMs = startAt - RealDate.now();
  installed = clock;
  return clock;
}
