/**
 * 0.2 named a key's day `budget:<key hash>:<day>`; the ledger now tags it
 * (`budget:{<key hash>}:<day>`) so that a cluster keeps a reservation's keys
 * in one slot. On one Redis upgraded during the day, the count under the old
 * name is the floor of the new one: the upgrade does not start the day again.
 */
import { expect, it } from 'vitest';
import { dayKey, RedisBudgetLedger } from '../../src/economy/redis-ledger.js';
import { utcDay } from '../../src/time.js';
import { redisPerTest } from '../support/redis-per-test.js';

const shared = redisPerTest();

it("reads the day counted under 0.2's name once, as a floor, and counts on from it", async () => {
  const day = utcDay(new Date());
  await shared.redis.hset(`budget:k:${day}`, 'used', '7');
  await shared.redis.pexpire(`budget:k:${day}`, 60_000);
  const ledger = new RedisBudgetLedger(shared.redis, { dailyLimit: 10, clientShare: 1 });

  expect((await ledger.usage('k')).used).toBe(7);
  await ledger.reserve({ keyId: 'k' });
  expect(await shared.redis.hget(dayKey('k', day), 'used')).toBe('8');
  await ledger.reserve({ keyId: 'k' });
  await ledger.reserve({ keyId: 'k' });
  await expect(ledger.reserve({ keyId: 'k' })).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  expect((await ledger.usage('k')).used).toBe(10);
});
