/**
 * Pass-through mode with Redis: a request of a key already accepted asks the shared key registry
 * for it a bounded number of times (the response cache's lookup, the key check), however many
 * records it reads. Each read asking again was a Redis round trip per record.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyIdOf } from '../../src/coordination/key-registry.js';
import { connectRedis, type SharedRedis } from '../../src/redis/connection.js';
import { artistsQuery, bearer } from '../support/client-key-queries.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

let prefix: string;
let redis: Redis;
let connection: SharedRedis;
let stack: Stack;

beforeAll(async () => {
  prefix = uniquePrefix();
  redis = new Redis(SHARED_REDIS_URL);
  connection = await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' }));
  stack = await startStack({ passThrough: true, gateway: { redis: connection } });
});
afterAll(async () => {
  await stack.close();
  await connection.close();
  await deleteUnder(redis, prefix);
  redis.disconnect();
});

it('a request of an accepted key reading twenty held records asks the registry for the key at most twice', async () => {
  const query = artistsQuery(stack.simulator, 0, 5);
  const first = await stack.query(query, undefined, bearer(CLIENT_KEY));
  expect(first.body.errors).toBeUndefined();

  const keyRecord = `${prefix}key:${keyIdOf(CLIENT_KEY)}`;
  const marker = `${prefix}seen-all`;
  const asked: string[][] = [];
  let markerSeen: () => void = () => {};
  const seenAll = new Promise<void>((resolve) => {
    markerSeen = resolve;
  });
  const monitor = await redis.monitor();
  monitor.on('monitor', (_time: string, args: string[]) => {
    if (args.includes(keyRecord)) asked.push(args);
    if (args.includes(marker)) markerSeen();
  });
  try {
    // The same records in another shape: not the stored answer, every record held.
    const again = await stack.query(
      query.replaceAll('name', 'name followers'),
      undefined,
      bearer(CLIENT_KEY),
    );
    expect(again.body.errors).toBeUndefined();
    const cost = again.body.extensions?.cost as { upstreamCalls: number; cacheHits: number };
    expect(cost.upstreamCalls).toBe(0);
    expect(cost.cacheHits).toBeGreaterThanOrEqual(20);
    // Redis shows commands in the order it runs them: once the marker shows, so have the request's.
    await redis.echo(marker);
    await seenAll;
  } finally {
    monitor.disconnect();
  }
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.length).toBeLessThanOrEqual(2);
});
