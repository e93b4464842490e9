/**
 * The poll lease shared by replicas: one key with the interval as its TTL,
 * taken with NX, so whichever replica asks first in an interval polls and
 * the others do not, and a replica that dies frees it when the TTL runs out.
 * When Redis cannot answer, no replica polls: a poll nobody can count against
 * the shared budget is not made.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/connection.js';
import { type PollCadence, type PollLease, pollLeaseKey } from './poll-lease.js';

export class RedisPollLease implements PollLease {
  readonly #token = randomUUID();

  constructor(private readonly redis: RedisClient) {}

  async take(intervalMs: number, cadence: PollCadence = 'steady'): Promise<boolean> {
    try {
      const key = pollLeaseKey(cadence);
      return (await this.redis.set(key, this.#token, 'PX', intervalMs, 'NX')) !== null;
    } catch {
      // A poll nobody can count against the shared budget is not made.
      return false;
    }
  }
}
