/**
 * The circuit breaker across replicas: once one replica has seen the
 * upstream fail often enough to open its circuit, another replica sharing
 * its Redis makes no call either (a cold read fails at once, UPSTREAM_ERROR),
 * although it has seen no failure itself; a replica with its own Redis
 * prefix (another deployment) still calls.
 */

import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { connectRedis, type SharedRedis } from '../../src/redis/connection.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { type Stack, startStack } from '../support/stack.js';

const prefix = uniquePrefix();
const otherPrefix = uniquePrefix();
let redis: Redis;
const connections: SharedRedis[] = [];
const stacks: Stack[] = [];

async function replica(keyPrefix: string, sharedSimulator?: Stack['simulator']): Promise<Stack> {
  const connection = await connectRedis(SHARED_REDIS_URL, keyPrefix, pino({ level: 'silent' }));
  connections.push(connection);
  const stack = await startStack({
    ...(sharedSimulator === undefined ? {} : { sharedSimulator }),
    gateway: {
      retries: 0,
      redis: connection,
      resilience: { staleGraceMs: 200, circuit: { failureThreshold: 2, openMs: 60_000 } },
    },
  });
  stacks.push(stack);
  return stack;
}

beforeAll(async () => {
  redis = new Redis(SHARED_REDIS_URL);
});
afterAll(async () => {
  for (const stack of stacks.reverse()) await stack.close();
  for (const connection of connections) await connection.close();
  await deleteUnder(redis, prefix);
  await deleteUnder(redis, otherPrefix);
  redis.disconnect();
});

const codes = (response: { body: { errors?: { extensions?: Record<string, unknown> }[] } }) =>
  (response.body.errors ?? []).map((error) => error.extensions?.code);
const artistQuery = (slug: string) => `{ artist(slug: "${slug}") { name } }`;

it("one replica's open circuit keeps the others sharing its Redis from calling", async () => {
  const first = await replica(prefix);
  const second = await replica(prefix, first.simulator);
  const elsewhere = await replica(otherPrefix, first.simulator);
  const artists = first.simulator.data.allArtists();

  first.simulator.injectFault({ kind: 'status', status: 503 });
  for (const artist of artists.slice(0, 2))
    expect(codes(await first.query(artistQuery(artist.slug)))).toEqual(['UPSTREAM_ERROR']);
  expect(first.upstreamCalls()).toBe(2);
  expect(await redis.pttl(`${prefix}circuit:open`)).toBeGreaterThan(0);

  // The upstream is back, but the circuit is open for every replica of this deployment.
  first.simulator.clearFaults();
  const refused = await second.query(artistQuery(artists[5]!.slug));
  expect(codes(refused)).toEqual(['UPSTREAM_ERROR']);
  expect(first.upstreamCalls()).toBe(2);

  const served = await elsewhere.query(artistQuery(artists[5]!.slug));
  expect(codes(served)).toEqual([]);
  expect(first.upstreamCalls()).toBe(3);
});
