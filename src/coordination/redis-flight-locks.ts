/**
 * Cross-replica single flight: `SET lock:<resource> <token> NX PX lease`.
 * The holder renews its lease while it fetches, so a slow upstream keeps it,
 * and a holder that dies loses it within one lease: a waiting replica then
 * takes over. Releasing checks the token, so a late holder never frees a
 * lease someone else took over.
 *
 * When Redis cannot answer, the process fetches itself: its budget ledger
 * (which refuses calls it cannot count) is what guards the day then.
 */
import { randomUUID } from 'node:crypto';
import type { RedisClient } from '../redis/connection.js';
import { hashedKey } from '../redis/key-names.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import { type FlightLease, type FlightLocks, NO_LEASE } from './flight-locks.js';

export const DEFAULT_LEASE_MS = 3_000;

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

export class RedisFlightLocks implements FlightLocks {
  readonly #release: ScriptCall;
  readonly #renew: ScriptCall;

  constructor(
    private readonly redis: RedisClient,
    private readonly leaseMs = DEFAULT_LEASE_MS,
  ) {
    this.#release = redisScript(redis, 'flightRelease', 1, RELEASE);
    this.#renew = redisScript(redis, 'flightRenew', 1, RENEW);
  }

  async acquire(key: string): Promise<FlightLease | undefined> {
    const lockKey = lockKeyOf(key);
    const token = randomUUID();
    try {
      const taken = await this.redis.set(lockKey, token, 'PX', this.leaseMs, 'NX');
      if (taken === null) return undefined;
    } catch {
      return NO_LEASE;
    }
    const renewal = setInterval(() => {
      this.#renew(lockKey, token, this.leaseMs).catch(() => undefined);
    }, this.leaseMs / 3);
    renewal.unref();
    return {
      release: async () => {
        clearInterval(renewal);
        await this.#release(lockKey, token).catch(() => undefined);
      },
    };
  }

  async isHeld(key: string): Promise<boolean> {
    try {
      return (await this.redis.exists(lockKeyOf(key))) === 1;
    } catch {
      return false;
    }
  }
}

function lockKeyOf(key: string): string {
  return `lock:${hashedKey(key, 'cache')}`;
}
