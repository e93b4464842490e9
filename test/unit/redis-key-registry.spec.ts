/**
 * The Redis key registry alone (src/coordination/redis-key-registry.ts), on
 * the shared Redis under a key prefix of each test's own: what one replica
 * learns of a key every other replica reads, each status expires with its
 * TTL (an acceptance is never prolonged by later successes), a key stays
 * known past its acceptance until it is rejected, while Redis cannot
 * answer the process goes by what it learned itself, and what Redis said is
 * kept a second at most, never past its entry.
 */
import { expect, it } from 'vitest';
import { KNOWN_KEY_TTL_MS, keyIdOf } from '../../src/coordination/key-registry.js';
import { RedisKeyRegistry } from '../../src/coordination/redis-key-registry.js';
import { redisPerTest } from '../support/redis-per-test.js';
import { until } from '../support/until.js';

const TTLS = { acceptedTtlMs: 60_000, rejectedTtlMs: 120_000 };
const KEY = keyIdOf('a client key');

const shared = redisPerTest();

it('shares what one replica learns with every other, each status under its TTL', async () => {
  const one = new RedisKeyRegistry(shared.redis, TTLS);
  const other = new RedisKeyRegistry(shared.redis, TTLS);
  expect(await other.status(KEY)).toBe('unknown');
  expect(await other.wasAccepted(KEY)).toBe(false);

  await one.markAccepted(KEY);
  expect(await other.status(KEY)).toBe('accepted');
  expect(await other.wasAccepted(KEY)).toBe(true);
  const accepted = await shared.stored();
  expect([...accepted.keys()].sort()).toEqual([`key-known:${KEY}`, `key:${KEY}`]);
  expect(accepted.get(`key:${KEY}`)).toBeGreaterThan(TTLS.acceptedTtlMs - 5_000);
  expect(accepted.get(`key:${KEY}`)).toBeLessThanOrEqual(TTLS.acceptedTtlMs);
  expect(accepted.get(`key-known:${KEY}`)).toBeGreaterThan(KNOWN_KEY_TTL_MS - 5_000);

  await other.markRejected(KEY);
  // The replica that wrote the acceptance keeps it for the second statuses are kept, at most.
  await until(async () => (await one.status(KEY)) === 'rejected');
  expect(await one.wasAccepted(KEY)).toBe(false);
  const rejected = await shared.stored();
  expect([...rejected.keys()]).toEqual([`key:${KEY}`]);
  expect(rejected.get(`key:${KEY}`)).toBeGreaterThan(TTLS.acceptedTtlMs);
  expect(rejected.get(`key:${KEY}`)).toBeLessThanOrEqual(TTLS.rejectedTtlMs);
});

it('does not prolong an acceptance on later successes', async () => {
  const keys = new RedisKeyRegistry(shared.redis, TTLS);
  await keys.markAccepted(KEY);
  const first = await shared.redis.pttl(`key:${KEY}`);
  // Some time passes (Redis's clock decides), then the key succeeds again.
  await until(async () => (await shared.redis.pttl(`key:${KEY}`)) < first - 20);
  await keys.markAccepted(KEY);
  expect(await shared.redis.pttl(`key:${KEY}`)).toBeLessThan(first - 20);
});

it('lets an acceptance lapse with its TTL, while the key stays known', async () => {
  const keys = new RedisKeyRegistry(shared.redis, { acceptedTtlMs: 50, rejectedTtlMs: 60_000 });
  await keys.markAccepted(KEY);
  expect(await keys.status(KEY)).toBe('accepted');
  await until(async () => (await keys.status(KEY)) === 'unknown', 10);
  expect(await keys.wasAccepted(KEY)).toBe(true);
  expect(await new RedisKeyRegistry(shared.redis, TTLS).status(KEY)).toBe('unknown');
});

it('goes by what this process learned while Redis cannot answer', async () => {
  const keys = new RedisKeyRegistry(shared.down(), TTLS);
  const rejectedKey = keyIdOf('a made-up key');
  await keys.markAccepted(KEY);
  await keys.markRejected(rejectedKey);
  expect(await keys.status(KEY)).toBe('accepted');
  expect(await keys.wasAccepted(KEY)).toBe(true);
  expect(await keys.status(rejectedKey)).toBe('rejected');
  expect(await keys.status(keyIdOf('never seen'))).toBe('unknown');
  // What it learned then stays in this process: Redis never heard of it.
  expect(await new RedisKeyRegistry(shared.redis, TTLS).status(KEY)).toBe('unknown');
  expect((await shared.stored()).size).toBe(0);
});

it('keeps what Redis said for a second at most: a key rejected elsewhere is refused soon after', async () => {
  const one = new RedisKeyRegistry(shared.redis, TTLS);
  const other = new RedisKeyRegistry(shared.redis, TTLS);
  await one.markAccepted(KEY);
  expect(other.statusNow(KEY)).toBeUndefined();
  expect(await other.status(KEY)).toBe('accepted');
  // Told now, without asking Redis: a response-cache hit's question.
  expect(other.statusNow(KEY)).toBe('accepted');
  await one.markRejected(KEY);
  await until(async () => (await other.status(KEY)) === 'rejected', 10);
  expect(other.statusNow(KEY)).toBe('rejected');
});

it('never keeps an acceptance past its entry in Redis', async () => {
  const writer = new RedisKeyRegistry(shared.redis, { acceptedTtlMs: 300, rejectedTtlMs: 60_000 });
  const reader = new RedisKeyRegistry(shared.redis, TTLS);
  await writer.markAccepted(KEY);
  expect(await reader.status(KEY)).toBe('accepted');
  await until(async () => (await shared.redis.exists(`key:${KEY}`)) === 0, 5);
  expect(reader.statusNow(KEY)).toBeUndefined();
  expect(await reader.status(KEY)).toBe('unknown');
});
