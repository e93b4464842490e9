/**
 * A call on its way at midnight UTC: the gateway counted it on the day it
 * left, and the upstream may count it on the day it arrived. It is counted
 * on the new day too, so that the new day can never spend one call more than
 * its limit (in a deployment run at 960×, a day ended with 1,001 calls at
 * the upstream and one 429). What a request held on the day before and did
 * not use goes back to that day, never to the new one (plan-ledger.spec.ts).
 *
 * The gateway's calendar is moved across midnight while the upstream holds
 * the call; the upstream and Redis keep real time.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { connectRedis, type SharedRedis } from '../../src/redis/connection.js';
import { todayAtUtc } from '../support/calendar.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

/** Tonight's midnight, from the real date: a second before it, then a second after. */
const MIDNIGHT = todayAtUtc(24);

async function stackAt(clock: { at: number }, store: string, plan: boolean): Promise<Stack> {
  let redis: SharedRedis | undefined;
  if (store === 'redis') {
    const prefix = uniquePrefix();
    const connection = await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' }));
    redis = connection;
    closers.push(async () => {
      await connection.close();
      const cleaner = new Redis(SHARED_REDIS_URL);
      await deleteUnder(cleaner, prefix);
      cleaner.disconnect();
    });
  }
  const stack = await startStack({
    gateway: {
      now: () => new Date(clock.at),
      ...(plan ? { budgetPlan: { headShare: 0.4, burst: 20 } } : {}),
      ...(redis === undefined ? {} : { redis }),
    },
  });
  closers.unshift(() => stack.close());
  return stack;
}

describe.each([
  ['memory', false],
  ['memory', true],
  ['redis', false],
  ['redis', true],
])('the %s ledger, the day planned: %s', (store, plan) => {
  it('counts a call answered after midnight on the new day too', async () => {
    const clock = { at: MIDNIGHT - 1_000 };
    const stack = await stackAt(clock, store, plan);
    const slug = stack.simulator.data.allArtists()[0]?.slug as string;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    stack.simulator.injectFault({ kind: 'hold', until: held }, { path: `/api/v1/artists/${slug}` });

    const page = stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug });
    await until(() => stack.simulator.calls.some((call) => call.rawPath.endsWith(slug)));
    clock.at = MIDNIGHT + 1_000;
    release();
    const answer = await page;
    expect(answer.body.data).toMatchObject({ artist: { name: expect.any(String) } });

    // One call reached the upstream, on its way across midnight: the new day counts it.
    expect(stack.upstreamCalls()).toBe(1);
    const usage = await stack.query('{ apiUsage { used resetsAt } }');
    expect(usage.body.data).toEqual({
      apiUsage: { used: 1, resetsAt: new Date(MIDNIGHT + 24 * 60 * 60 * 1000).toISOString() },
    });
  });
});
