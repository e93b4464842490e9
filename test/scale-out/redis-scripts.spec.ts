/**
 * The Lua scripts behind the shared budget and leases are run by their SHA-1
 * (EVALSHA): a script's text goes to Redis once per connection, not with
 * every call. A Redis that no longer has them (restarted, or its script
 * cache flushed) is sent the text again, and nothing is lost. On a Redis of
 * this test's own: its command counts are this test's alone, and flushing
 * the script cache is server-wide.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { RedisFlightLocks } from '../../src/coordination/redis-flight-locks.js';
import { RedisBudgetLedger } from '../../src/economy/redis-ledger.js';
import { freePort, startOwnRedis } from '../support/redis.js';

let own: Awaited<ReturnType<typeof startOwnRedis>>;
let redis: Redis;
beforeAll(async () => {
  own = await startOwnRedis(await freePort());
  redis = new Redis(own.url, { keyPrefix: 'scripts:' });
});
afterAll(async () => {
  redis.disconnect();
  await own.stop();
});

/** How many times Redis ran EVAL and EVALSHA so far. */
async function scriptCalls(): Promise<{ eval: number; evalsha: number }> {
  const stats = await redis.info('commandstats');
  const calls = (name: string) =>
    Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0);
  return { eval: calls('eval'), evalsha: calls('evalsha') };
}

it('counts and leases by script SHA, and goes on after Redis forgets the scripts', async () => {
  const ledger = new RedisBudgetLedger(redis, { dailyLimit: 100, clientShare: 1 });
  const locks = new RedisFlightLocks(redis);
  const leaseAndRelease = async () => {
    const lease = await locks.acquire('/api/v1/artists/a');
    expect(lease).toBeDefined();
    await lease?.release();
  };
  await ledger.reserve({ keyId: 'k' });
  await leaseAndRelease();

  const before = await scriptCalls();
  for (let call = 0; call < 5; call++) {
    await ledger.reserve({ keyId: 'k' });
    await leaseAndRelease();
  }
  const after = await scriptCalls();
  expect(after.eval - before.eval).toBe(0);
  expect(after.evalsha - before.evalsha).toBe(10);

  await redis.script('FLUSH');
  await ledger.reserve({ keyId: 'k' });
  await leaseAndRelease();
  expect((await ledger.usage('k')).remaining).toBe(100 - 7);
  // Released after the flush too: the lease is free.
  expect(await locks.isHeld('/api/v1/artists/a')).toBe(false);
});
