/**
 * A gateway on the shared Redis under a key prefix of the spec's own, with a plain connection
 * beside it for the spec to look at Redis (MONITOR, keys), started before the spec's tests and
 * its keys removed after them.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { connectRedis, type SharedRedis } from '../../src/redis/connection.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from './redis.js';
import { type Stack, type StackOptions, startStack } from './stack.js';

export interface RedisStack {
  readonly stack: Stack;
  /** The spec's own connection, without the gateway's key prefix. */
  readonly redis: Redis;
  /** The prefix of every key the gateway writes. */
  readonly prefix: string;
}

export function useRedisStack(options: Omit<StackOptions, 'gateway'> = {}): RedisStack {
  let stack: Stack | undefined;
  let redis: Redis | undefined;
  let connection: SharedRedis | undefined;
  const prefix = uniquePrefix();
  beforeAll(async () => {
    redis = new Redis(SHARED_REDIS_URL);
    connection = await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' }));
    stack = await startStack({ ...options, gateway: { redis: connection } });
  });
  afterAll(async () => {
    await stack?.close();
    await connection?.close();
    if (redis !== undefined) {
      await deleteUnder(redis, prefix);
      redis.disconnect();
    }
  });
  return {
    get stack() {
      if (stack === undefined) throw new Error('the stack starts before the tests');
      return stack;
    },
    get redis() {
      if (redis === undefined) throw new Error('the connection opens before the tests');
      return redis;
    },
    prefix,
  };
}
