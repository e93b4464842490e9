/**
 * The poll lease of a gateway without Redis. Nobody else polls, yet the
 * refresh poll still asks for the lease a few times per interval: the same
 * rule, kept in this process, holds it to one poll per interval, the number
 * the day's budget reserves. Time is performance.now(), so a wall clock that
 * steps back cannot stop the poll, nor one that jumps ahead make it poll twice.
 */
import { performance } from 'node:perf_hooks';
import type { PollCadence, PollLease } from './poll-lease.js';

/** One process: the same rule with its own clock (performance.now(), immune to wall clock steps). */
export class LocalPollLease implements PollLease {
  readonly #until: Record<PollCadence, number> = {
    steady: Number.NEGATIVE_INFINITY,
    dense: Number.NEGATIVE_INFINITY,
  };

  async take(intervalMs: number, cadence: PollCadence = 'steady'): Promise<boolean> {
    const now = performance.now();
    if (now < this.#until[cadence]) return false;
    this.#until[cadence] = now + intervalMs;
    return true;
  }
}
