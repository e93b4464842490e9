/** Graceful answers when the upstream is failing, slow, or out of budget. */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type Stack, type StackOptions, startStack } from '../support/stack.js';

const stacks: Stack[] = [];
async function stackWith(options: StackOptions): Promise<Stack> {
  const stack = await startStack(options);
  stacks.push(stack);
  return stack;
}
afterEach(async () => {
  for (const stack of stacks.splice(0)) {
    stack.simulator.clearFaults();
    await stack.simulator.start().catch(() => undefined);
    await stack.close();
  }
});

const CHARTS = '{ charts { name } }';
const expectedMidnight = () => {
  const midnight = new Date();
  midnight.setUTCHours(24, 0, 0, 0);
  return midnight.toISOString();
};

describe('retries', () => {
  it('upstream 500 then 200: retried once, answered', async () => {
    const stack = await stackWith({});
    stack.simulator.injectFault(
      { kind: 'status', status: 500 },
      { path: '/api/v1/charts', times: 1 },
    );
    const response = await stack.query(CHARTS);
    expect(response.body.errors).toBeUndefined();
    expect((response.body.data as { charts: unknown[] }).charts.length).toBe(3);
    expect(stack.upstreamCalls()).toBe(2);
    expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 2 });
  });

  it('honours Retry-After on a 503', async () => {
    const stack = await stackWith({});
    stack.simulator.injectFault(
      { kind: 'status', status: 503, retryAfterSeconds: 1 },
      { path: '/api/v1/charts', times: 1 },
    );
    const started = Date.now();
    const response = await stack.query(CHARTS);
    expect(response.body.errors).toBeUndefined();
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
  });

  it('never retries a 4xx', async () => {
    const stack = await stackWith({});
    stack.simulator.injectFault(
      { kind: 'status', status: 400 },
      { path: '/api/v1/charts', times: 1 },
    );
    const response = await stack.query(CHARTS);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.upstreamCalls()).toBe(1);
  });
});

describe('stale-if-error', () => {
  const shortTtl = {
    gateway: {
      retries: 0,
      cache: {
        ttlMs: 50,
        notFoundTtlMs: 50,
        retentionMs: 60_000,
        maxEntries: 100,
        maxBytes: 1e7,
      },
    },
  };

  it('upstream down with a warm cache: answers stale, and says so', async () => {
    const stack = await stackWith(shortTtl);
    const fresh = await stack.query(CHARTS);
    await sleep(80);
    await stack.simulator.stop();
    const stale = await stack.query(CHARTS);
    expect(stale.body.errors).toBeUndefined();
    expect(stale.body.data).toEqual(fresh.body.data);
    // The field answered from held data, by its place in the answer, and how old that data is.
    expect(stale.body.extensions?.stale).toEqual([{ path: ['charts'], ageSeconds: 0 }]);
  });

  it('upstream down with a cold cache: UPSTREAM_ERROR for that field, partial data elsewhere', async () => {
    const stack = await stackWith(shortTtl);
    const slug = stack.simulator.data.allArtists()[0]!.slug;
    await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug });
    await sleep(80);
    await stack.simulator.stop();
    const response = await stack.query(
      'query ($slug: String!) { artist(slug: $slug) { name } other: artist(slug: "never-fetched") { name } }',
      {
        slug,
      },
    );
    expect(response.body.data).toEqual({
      artist: { name: stack.simulator.data.allArtists()[0]!.name },
      other: null,
    });
    expect(response.body.errors?.[0]).toMatchObject({
      path: ['other'],
      extensions: { code: 'UPSTREAM_ERROR' },
    });
    expect(response.body.extensions?.stale).toEqual([{ path: ['artist'], ageSeconds: 0 }]);
  });

  it('a 500 past the TTL also falls back to the stale answer', async () => {
    const stack = await stackWith(shortTtl);
    await stack.query(CHARTS);
    await sleep(80);
    stack.simulator.injectFault({ kind: 'status', status: 500 }, { path: '/api/v1/charts' });
    const response = await stack.query(CHARTS);
    expect(response.body.errors).toBeUndefined();
    expect(response.body.extensions?.stale).toHaveLength(1);
  });
});

describe('daily budget', () => {
  it('after a 429: no further calls for that key, cached answers still served, misses RATE_LIMITED', async () => {
    const stack = await stackWith({ gateway: { retries: 0 } });
    await stack.query(CHARTS);
    stack.simulator.injectFault({ kind: 'status', status: 429 }, { path: '/api/v1/leaderboard' });
    const limited = await stack.query('{ topSongs { rank } }');
    expect(limited.body.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', resetsAt: expectedMidnight() },
    });
    stack.simulator.clearFaults();

    const calls = stack.upstreamCalls();
    const cached = await stack.query(CHARTS);
    expect(cached.body.errors).toBeUndefined();
    const miss = await stack.query('query { artist(slug: "anyone") { name } }');
    expect(miss.body.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', resetsAt: expectedMidnight() },
    });
    expect(stack.upstreamCalls()).toBe(calls);
    const usage = await stack.query('{ apiUsage { remaining used } }');
    expect((usage.body.data as { apiUsage: unknown }).apiUsage).toEqual({ remaining: 0, used: 2 });
    expect(usage.body.extensions?.cost).toMatchObject({ budget: { remaining: 0 } });
  });

  it('stops at the configured daily limit without waiting for the upstream to say 429', async () => {
    // One client alone may spend the whole day here: the per-client share is tested in test/scale-out.
    const stack = await stackWith({ gateway: { dailyLimit: 3, stores: { clientBudgetShare: 1 } } });
    const slugs = stack.simulator.data
      .allArtists()
      .slice(0, 5)
      .map((a) => a.slug);
    const results = [];
    for (const slug of slugs)
      results.push(
        await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug }),
      );
    expect(stack.upstreamCalls()).toBe(3);
    expect(
      results.map((r) => (r.body.errors?.[0]?.extensions?.code as string | undefined) ?? 'ok'),
    ).toEqual(['ok', 'ok', 'ok', 'RATE_LIMITED', 'RATE_LIMITED']);
  });
});

describe('slow upstream', () => {
  it('respects the deadline and leaves nothing in flight', async () => {
    const stack = await stackWith({
      simulator: { latencyMs: 3_000 },
      gateway: { deadlineMs: 300, retries: 2 },
    });
    const started = Date.now();
    const responses = await Promise.all([
      stack.query(CHARTS),
      stack.query('{ topSongs { rank } }'),
    ]);
    expect(Date.now() - started).toBeLessThan(1_500);
    for (const response of responses) {
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UPSTREAM_ERROR');
    }
    expect(stack.gateway.upstream.inFlight).toBe(0);
  });

  it('shares one in-flight call between concurrent requests for the same resource', async () => {
    const stack = await stackWith({ simulator: { latencyMs: 200 } });
    const responses = await Promise.all(Array.from({ length: 5 }, () => stack.query(CHARTS)));
    expect(stack.upstreamCalls()).toBe(1);
    const costs = responses.map(
      (r) => r.body.extensions?.cost as { upstreamCalls: number; deduplicated: number },
    );
    expect(costs.reduce((sum, c) => sum + c.upstreamCalls, 0)).toBe(1);
    expect(costs.reduce((sum, c) => sum + c.deduplicated, 0)).toBe(4);
  });

  it('bounds the calls in flight: the rest wait, and past the queue bound they fail fast', async () => {
    const stack = await stackWith({
      simulator: { latencyMs: 300 },
      gateway: {
        retries: 0,
        client: {
          connectTimeoutMs: 1_000,
          headersTimeoutMs: 5_000,
          bodyTimeoutMs: 5_000,
          maxConcurrency: 2,
          maxQueue: 2,
          maxBodyBytes: 1e6,
        },
      },
    });
    const slugs = stack.simulator.data
      .allArtists()
      .slice(0, 6)
      .map((a) => a.slug);
    const query = `{ ${slugs.map((slug, i) => `a${i}: artist(slug: "${slug}") { name }`).join(' ')} }`;
    const response = await stack.query(query);
    const failed = response.body.errors ?? [];
    expect(failed).toHaveLength(2);
    for (const error of failed) {
      expect(error).toMatchObject({
        message: 'The gateway has too many upstream calls waiting',
        extensions: { code: 'UPSTREAM_ERROR' },
      });
    }
    expect(stack.upstreamCalls()).toBe(4);
  });
});
