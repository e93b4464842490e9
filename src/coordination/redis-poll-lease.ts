/**
 * The poll lease shared by replicas: one key with the interval as its TTL,
 * taken with NX, so whichever replica asks first in an interval polls and
 * the others do not, and a replica that dies frees it when the TTL runs out.
 * When Redis cannot answer, no replica polls: a poll nobody can count against
 * the shared budget is not made.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/connection.js';
import { POLL_LEASE_KEY, type PollLease } from './poll-lease.js';

export class RedisPollLease implements PollLease {
  readonly #token = randomUUID();

  constructor(private readonly redis: RedisClient) {}

  async take(intervalMs: number): Promise<boolean> {
    try {
      return (await this.redis.set(POLL_LEASE_KEY, this.#token, 'PX', intervalMs, 'NX')) !== null;
    } catch {
      // A poll nobody can count against the shared budget is not made.
      return false;
    }
  }
}
