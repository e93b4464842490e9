/**
 * Which replica polls: the one that takes the lease, `SET refresh-poll <token>
 * NX PX <interval>`. Every replica tries a few times per interval, so the poll
 * runs once per interval (give or take one try) whoever is alive; a replica
 * that dies simply stops taking it. Without Redis the one process always polls.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Redis } from 'ioredis';

export interface PollLease {
  /** True when this process should poll now; false while another poll of this interval ran (or Redis is away). */
  take(intervalMs: number): Promise<boolean>;
}

export const POLL_LEASE_KEY = 'refresh-poll';

export class RedisPollLease implements PollLease {
  readonly #token = randomUUID();

  constructor(private readonly redis: Redis) {}

  async take(intervalMs: number): Promise<boolean> {
    try {
      return (await this.redis.set(POLL_LEASE_KEY, this.#token, 'PX', intervalMs, 'NX')) !== null;
    } catch {
      // A poll nobody can count against the shared budget is not made.
      return false;
    }
  }
}

/** One process: the same rule with its own clock (performance.now(), immune to wall clock steps). */
export class LocalPollLease implements PollLease {
  #until = Number.NEGATIVE_INFINITY;

  async take(intervalMs: number): Promise<boolean> {
    const now = performance.now();
    if (now < this.#until) return false;
    this.#until = now + intervalMs;
    return true;
  }
}
