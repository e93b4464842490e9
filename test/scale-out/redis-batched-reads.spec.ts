/**
 * Reads asked of Redis together are sent together (src/redis/batched.ts): a
 * cold fan-out's twenty reads ask for their cache entries in one MGET, the
 * shared circuit in one PTTL, the day's figures in one HMGET per key and
 * their records' popularity in one ZMSCORE, and each reader still gets its
 * own answer. On a Redis of this test's own: its command counts are this
 * test's alone.
 */

import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { RedisCache, redisCacheKey } from '../../src/cache/redis-cache.js';
import { DEFAULT_CIRCUIT } from '../../src/coordination/circuit-breaker.js';
import { LocalCircuitBreaker } from '../../src/coordination/local-circuit-breaker.js';
import { SharedCircuitBreaker } from '../../src/coordination/redis-circuit-breaker.js';
import { RedisBudgetLedger } from '../../src/economy/redis-ledger.js';
import { RedisPopularity } from '../../src/economy/redis-popularity.js';
import { connectRedis } from '../../src/redis/connection.js';
import { freshEntry } from '../support/cache-entries.js';
import { freePort, startOwnRedis, uniquePrefix } from '../support/redis.js';
import { startStack } from '../support/stack.js';

let own: Awaited<ReturnType<typeof startOwnRedis>>;
let redis: Redis;
beforeAll(async () => {
  own = await startOwnRedis(await freePort());
  redis = new Redis(own.url, { keyPrefix: 'batched:' });
});
afterEach(async () => {
  await redis.flushall();
});
afterAll(async () => {
  redis.disconnect();
  await own.stop();
});

/** Redis's count of each command run since the last call (commands inside scripts included). */
async function commandsSince(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  const stats = await redis.info('commandstats');
  for (const [, name, calls] of stats.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g))
    counts[name!] = Number(calls);
  await redis.config('RESETSTAT');
  return counts;
}

const TOP_20_WITH_HISTORY =
  '{ topArtistsByStreams(limit: 20) { rank artist { slug name history { date dailyStreams } } } }';

const slugs = Array.from({ length: 20 }, (_, index) => `/api/v1/artists/artist-${index}/history`);

it('reads twenty cache entries in one MGET, each reader getting its own, a missing or garbled one a miss', async () => {
  const cache = new RedisCache(redis);
  await Promise.all(slugs.slice(0, 18).map((key, index) => cache.set(key, freshEntry({ index }))));
  await redis.set(redisCacheKey(slugs[18]!), '{"outcome": "value", not json');
  await commandsSince();

  const found = await Promise.all(slugs.map((key) => cache.get(key)));

  expect(found.slice(0, 18).map((hit) => hit?.value)).toEqual(
    Array.from({ length: 18 }, (_, index) => ({ index })),
  );
  expect(found.slice(18)).toEqual([undefined, undefined]);
  const counts = await commandsSince();
  expect(counts.mget).toBe(1);
  expect(counts.get).toBeUndefined();
});

it('asks once whether another replica opened the circuit, for the calls that leave together', async () => {
  const circuit = new SharedCircuitBreaker(
    new LocalCircuitBreaker(DEFAULT_CIRCUIT, pino({ level: 'silent' })),
    redis,
    DEFAULT_CIRCUIT,
  );
  await commandsSince();
  await Promise.all(slugs.map(() => circuit.admit()));
  expect((await commandsSince()).pttl).toBe(1);

  // Opened elsewhere: every call of the next wave is refused, on that one answer.
  await redis.set('circuit:open', '1', 'PX', 30_000);
  await commandsSince();
  const admitted = await Promise.allSettled(slugs.map(() => circuit.admit()));
  expect(admitted.every((outcome) => outcome.status === 'rejected')).toBe(true);
  expect(circuit.state).toBe('open');
  expect((await commandsSince()).pttl).toBe(1);
});

it("reads a key's day figures once for the reservations weighed together, per key", async () => {
  const ledger = new RedisBudgetLedger(redis, { dailyLimit: 100, clientShare: 1 });
  for (let call = 0; call < 3; call++) await ledger.reserve({ keyId: 'first' });
  await ledger.reserve({ keyId: 'second' });
  await commandsSince();

  const figures = await Promise.all([
    ...slugs.map(() => ledger.spending('first')),
    ledger.spending('second'),
  ]);

  expect(figures.slice(0, 20).every((spent) => spent.used === 3)).toBe(true);
  expect(figures[20]?.used).toBe(1);
  expect((await commandsSince()).hmget).toBe(2);
});

it('reads the popularity of twenty records in one ZMSCORE, each its own count', async () => {
  const writer = new RedisPopularity(redis);
  writer.record(slugs.slice(0, 5));
  writer.record(slugs.slice(0, 2));
  // Closing sends the counts it holds.
  await writer.close();
  const reader = new RedisPopularity(redis);
  try {
    await commandsSince();
    const counts = await Promise.all(slugs.map((key) => reader.count(key)));
    expect(counts).toEqual([2, 2, 1, 1, 1, ...Array.from({ length: 15 }, () => 0)]);
    const commands = await commandsSince();
    expect(commands.zmscore).toBe(1);
    expect(commands.zscore).toBeUndefined();
  } finally {
    await reader.close();
  }
});

it('a cold top 20 with histories asks the shared circuit once per wave, and its cache in a few MGETs', async () => {
  const shared = await connectRedis(own.url, uniquePrefix(), pino({ level: 'silent' }));
  // Latency, and room for the twenty calls at once, so that the second wave leaves together.
  const stack = await startStack({
    simulator: { latencyMs: 20 },
    gateway: {
      redis: shared,
      client: {
        connectTimeoutMs: 2_000,
        headersTimeoutMs: 5_000,
        bodyTimeoutMs: 5_000,
        maxConcurrency: 32,
        maxQueue: 1_000,
        maxBodyBytes: 5 * 1024 * 1024,
      },
    },
  });
  try {
    await commandsSince();
    const page = await stack.query(TOP_20_WITH_HISTORY);
    expect(page.body.errors).toBeUndefined();
    const top = (page.body.data as { topArtistsByStreams: { artist: { history: unknown[] } }[] })
      .topArtistsByStreams;
    expect(top).toHaveLength(20);
    expect(top.every((ranked) => ranked.artist.history.length > 0)).toBe(true);
    expect(stack.upstreamCalls()).toBe(21);

    const commands = await commandsSince();
    // Two waves, the leaderboard then twenty histories, each asking in a batch before its leases
    // and again under them. Replies to commands sent together come back together, but may be
    // split: the bounds leave room for that, far below a command per read (21).
    expect(commands.pttl).toBeLessThanOrEqual(6);
    expect(commands.mget).toBeGreaterThanOrEqual(2);
    expect(commands.mget).toBeLessThanOrEqual(12);
  } finally {
    await stack.close();
  }
});
