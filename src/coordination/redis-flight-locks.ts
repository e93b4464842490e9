/**
 * Cross-replica single flight (leased-flight-locks.ts) with its leases in
 * Redis: `SET lock:<resource> <token> NX PX lease`, renewed and released by
 * scripts that check the token, so every step is one atomic command.
 */
import type { RedisClient } from '../redis/connection.js';
import { hashedKey } from '../redis/key-names.js';
import { redisScript, type ScriptCall } from '../redis/script.js';
import { DEFAULT_LEASE_MS, LeasedFlightLocks, type LeaseStore } from './leased-flight-locks.js';

const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`;
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end return 0`;

/** Leases as Redis keys, `SET lock:<resource> <token> NX PX lease`, each command atomic. */
class RedisLeases implements LeaseStore {
  readonly #release: ScriptCall;
  readonly #renew: ScriptCall;

  constructor(private readonly redis: RedisClient) {
    this.#release = redisScript(redis, 'flightRelease', 1, RELEASE);
    this.#renew = redisScript(redis, 'flightRenew', 1, RENEW);
  }

  async take(key: string, token: string, leaseMs: number): Promise<boolean> {
    return (await this.redis.set(lockKeyOf(key), token, 'PX', leaseMs, 'NX')) !== null;
  }

  async renew(key: string, token: string, leaseMs: number): Promise<void> {
    await this.#renew(lockKeyOf(key), token, leaseMs);
  }

  async release(key: string, token: string): Promise<void> {
    await this.#release(lockKeyOf(key), token);
  }

  async isHeld(key: string): Promise<boolean> {
    return (await this.redis.exists(lockKeyOf(key))) === 1;
  }
}

export class RedisFlightLocks extends LeasedFlightLocks {
  constructor(redis: RedisClient, leaseMs = DEFAULT_LEASE_MS) {
    super(new RedisLeases(redis), leaseMs);
  }
}

function lockKeyOf(key: string): string {
  return `lock:${hashedKey(key, 'cache')}`;
}
