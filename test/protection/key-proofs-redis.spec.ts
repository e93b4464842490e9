/**
 * Key proofs with Redis: a key whose acceptance lapsed is proven again by
 * one call and then reads the cache; two replicas prove an unseen key once
 * between them; a rejected key leaves nothing in the shared ledger.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyIdOf } from '../../src/coordination/key-registry.js';
import { dayKey } from '../../src/economy/redis-ledger.js';
import { connectRedis, type SharedRedis } from '../../src/redis/connection.js';
import { artistsQuery as artistsOf, bearer } from '../support/client-key-queries.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { until } from '../support/replicas.js';
import { CLIENT_KEY, OTHER_CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

const ACCEPTED_TTL_MS = 400;

let prefix: string;
let redis: Redis;
const connections: SharedRedis[] = [];
let first: Stack;
let second: Stack;

async function replica(sharedSimulator?: Stack['simulator']): Promise<Stack> {
  const connection = await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' }));
  connections.push(connection);
  return startStack({
    passThrough: true,
    ...(sharedSimulator === undefined ? {} : { sharedSimulator }),
    gateway: {
      unknownKeysPerMinute: 1_000,
      redis: connection,
      stores: { keyAcceptedTtlMs: ACCEPTED_TTL_MS },
    },
  });
}

beforeAll(async () => {
  prefix = uniquePrefix();
  redis = new Redis(SHARED_REDIS_URL);
  first = await replica();
  second = await replica(first.simulator);
});
afterAll(async () => {
  await second.close();
  await first.close();
  for (const connection of connections) await connection.close();
  await deleteUnder(redis, prefix);
  redis.disconnect();
});

const artistsQuery = (from: number, count: number) => artistsOf(first.simulator, from, count);

it('a key whose acceptance lapsed pays one call to be proven again, then reads the cache', async () => {
  const query = artistsQuery(0, 2);
  // The answer of a whole query is kept too; the second read asks for the same records in another shape.
  const sameReads = query.replace('a0:', 'b0:');
  expect((await first.query(query, undefined, bearer(CLIENT_KEY))).status).toBe(200);
  const accepted = `${prefix}key:${keyIdOf(CLIENT_KEY)}`;
  expect(await redis.get(accepted)).toBe('accepted');
  await until(async () => (await redis.exists(accepted)) === 0);
  const before = first.upstreamCalls();
  const response = await first.query(sameReads, undefined, bearer(CLIENT_KEY));
  expect(response.status).toBe(200);
  expect(first.upstreamCalls() - before).toBe(1);
});

it('two replicas prove an unseen key once between them', async () => {
  const warm = [10, 11, 12, 13].map((from) => artistsQuery(from, 1));
  for (const query of warm) await first.query(query, undefined, bearer(CLIENT_KEY));
  const before = first.upstreamCalls();
  const responses = await Promise.all(
    warm.map((query, i) =>
      (i % 2 === 0 ? first : second).query(query, undefined, bearer(OTHER_CLIENT_KEY)),
    ),
  );
  expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  expect(first.upstreamCalls() - before).toBe(1);
});

it('a rejected key leaves no count in the shared ledger', async () => {
  const response = await first.query(artistsQuery(20, 1), undefined, bearer('made-up-redis'));
  expect(response.status).toBe(401);
  const ledger = [...(await keysUnder(redis, prefix)).keys()].filter((key) =>
    key.startsWith(`${prefix}${dayKey(keyIdOf('made-up-redis'), '')}`),
  );
  expect(ledger).toEqual([]);
});

it('a key whose acceptance lapsed is proven again without counting as a new key; a new one still counts', async () => {
  const ownPrefix = uniquePrefix();
  const connection = await connectRedis(SHARED_REDIS_URL, ownPrefix, pino({ level: 'silent' }));
  const limited = await startStack({
    passThrough: true,
    sharedSimulator: first.simulator,
    gateway: {
      unknownKeysPerMinute: 1,
      redis: connection,
      stores: { keyAcceptedTtlMs: ACCEPTED_TTL_MS },
    },
  });
  try {
    const query = artistsQuery(30, 1);
    expect((await limited.query(query, undefined, bearer(CLIENT_KEY))).status).toBe(200);
    const accepted = `${ownPrefix}key:${keyIdOf(CLIENT_KEY)}`;
    await until(async () => (await redis.exists(accepted)) === 0);

    const before = limited.upstreamCalls();
    const again = await limited.query(query, undefined, bearer(CLIENT_KEY));
    expect(again.status).toBe(200);
    expect(limited.upstreamCalls() - before).toBe(1);

    const another = await limited.query(query, undefined, bearer(OTHER_CLIENT_KEY));
    expect(another.status).toBe(429);
    expect(another.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  } finally {
    await limited.close();
    await connection.close();
    await deleteUnder(redis, ownPrefix);
  }
});
