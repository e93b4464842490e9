/**
 * The shared Redis for the unit specs of Redis stores: each test gets a
 * connection under a key prefix of its own, so stores that name fixed keys
 * (`generation`, `circuit:open`) never meet another test's, and whatever the
 * test wrote is deleted after it. Registers its hooks where it is called.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach } from 'vitest';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from './redis.js';

export interface RedisPerTest {
  /** The current test's connection, its keys under `prefix`. */
  readonly redis: Redis;
  readonly prefix: string;
  /** The current test's keys as Redis holds them, without the prefix, with their TTLs in ms. */
  stored(): Promise<Map<string, number>>;
  /** A connection under the test's prefix that fails every command at once, as in an outage. */
  down(): Redis;
}

export function redisPerTest(): RedisPerTest {
  /** Unprefixed: finds and deletes each test's keys. */
  const admin = new Redis(SHARED_REDIS_URL);
  let current: { redis: Redis; prefix: string } | undefined;
  const now = () => {
    if (current === undefined) throw new Error('redisPerTest: only inside a test');
    return current;
  };
  beforeEach(() => {
    const prefix = uniquePrefix();
    current = { prefix, redis: new Redis(SHARED_REDIS_URL, { keyPrefix: prefix }) };
  });
  afterEach(async () => {
    const { prefix, redis } = now();
    current = undefined;
    await deleteUnder(admin, prefix);
    redis.disconnect();
  });
  afterAll(() => {
    admin.disconnect();
  });
  return {
    get redis() {
      return now().redis;
    },
    get prefix() {
      return now().prefix;
    },
    async stored() {
      const { prefix } = now();
      const keys = await keysUnder(admin, prefix);
      return new Map([...keys].map(([key, ttl]) => [key.slice(prefix.length), ttl]));
    },
    down() {
      // Closed before it ever connected: ioredis refuses every command without trying.
      const closed = new Redis(SHARED_REDIS_URL, { keyPrefix: now().prefix, lazyConnect: true });
      closed.disconnect();
      return closed;
    },
  };
}
