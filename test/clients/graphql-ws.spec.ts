/**
 * graphql-ws (the `graphql-transport-ws` protocol), unmodified, over a real
 * WebSocket to the GraphQL endpoint's own path and port: queries, a
 * subscription receiving a published milestone, the key refused with its
 * close code in pass-through mode, and allow-list mode refusing free text.
 */
import { type Client, createClient, type FormattedExecutionResult } from 'graphql-ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openSubscriptions } from '../support/prometheus.js';
import { until } from '../support/replicas.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

const HOUR_MS = 3_600_000;
const MILESTONES = 'subscription { milestoneCrossed { id threshold artist { slug } } }';

/** A graphql-ws client on `stack`, with the close event of its socket when it closes. */
function client(stack: Stack, connectionParams?: Record<string, unknown>) {
  const closes: { code: number; reason: string }[] = [];
  const ws: Client = createClient({
    url: `${stack.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: false,
    on: { closed: (event) => closes.push(event as { code: number; reason: string }) },
    onNonLazyError: () => {},
  });
  return { ws, closes };
}

/** One operation's every result, until it completes or fails. */
function run(ws: Client, query: string, variables?: Record<string, unknown>) {
  return new Promise<{
    results: FormattedExecutionResult<Record<string, unknown>, unknown>[];
    error?: unknown;
  }>((resolve) => {
    const results: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
    ws.subscribe(
      { query, ...(variables ? { variables } : {}) },
      {
        next: (result) => results.push(result),
        complete: () => resolve({ results }),
        error: (error) => resolve({ results, error }),
      },
    );
  });
}

describe('server-key mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ gateway: { refreshPollMs: HOUR_MS } });
  });
  afterAll(() => stack.close());

  it('answers a query over the socket as over HTTP, cost report included', async () => {
    const { ws } = client(stack);
    const artist = stack.simulator.data.allArtists()[0]!;
    const { results, error } = await run(
      ws,
      'query ($slug: String!) { artist(slug: $slug) { name } }',
      {
        slug: artist.slug,
      },
    );
    await ws.dispose();
    expect(error).toBeUndefined();
    expect(results).toHaveLength(1);
    expect(results[0]!.data).toEqual({ artist: { name: artist.name } });
    expect(results[0]!.extensions).toMatchObject({ cost: { upstreamCalls: expect.any(Number) } });
  });

  it('a subscription receives a milestone the simulator publishes, then completes when the client does', async () => {
    const { ws } = client(stack);
    const slug = stack.simulator.data.allArtists()[1]!.slug;
    const events: FormattedExecutionResult<Record<string, unknown>, unknown>[] = [];
    const unsubscribe = ws.subscribe(
      { query: MILESTONES },
      {
        next: (event) => events.push(event),
        complete: () => {},
        error: () => {},
      },
    );
    await stack.gateway.refreshPoll!.pollNow();
    // The subscription is live once the gateway counts it; then one published milestone reaches it.
    await until(async () => {
      console.log('open', await openSubscriptions(stack.gateway));
      return (await openSubscriptions(stack.gateway)) === 1;
    }, 500);
    const published = stack.simulator.publishMilestone(slug)!;
    await stack.gateway.refreshPoll!.pollNow();
    await until(() => {
      console.log(JSON.stringify(events));
      return events.length === 1;
    }, 500);
    expect(events[0]!.data).toEqual({
      milestoneCrossed: { id: published.id, threshold: published.threshold, artist: { slug } },
    });
    unsubscribe();
    await until(async () => (await openSubscriptions(stack.gateway)) === 0);
    await ws.dispose();
  });

  it('an upgrade anywhere but the GraphQL endpoint is refused', async () => {
    const socket = new WebSocket(
      `${stack.url.replace('http', 'ws')}/elsewhere`,
      'graphql-transport-ws',
    );
    const status = await new Promise<number>((resolve) => {
      socket.once('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
      socket.once('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });
});

describe('pass-through mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ passThrough: true });
  });
  afterAll(() => stack.close());

  it('with no key, the connection closes with 4401; with a key the upstream rejects, 4403', async () => {
    const none = client(stack);
    expect((await run(none.ws, '{ __typename }')).error).toBeDefined();
    await until(() => none.closes.length > 0);
    expect(none.closes[0]!.code).toBe(4401);

    const wrong = client(stack, { Authorization: 'Bearer not-a-key-the-upstream-knows' });
    const refused = await run(wrong.ws, '{ charts { name } }');
    await until(() => wrong.closes.length > 0);
    expect(refused.results[0]?.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(wrong.closes[0]!.code).toBe(4403);

    // Now the gateway knows the key is rejected: the next connection is refused at once, without a call.
    const calls = stack.upstreamCalls();
    const again = client(stack, { Authorization: 'Bearer not-a-key-the-upstream-knows' });
    expect((await run(again.ws, '{ __typename }')).error).toBeDefined();
    await until(() => again.closes.length > 0);
    expect(again.closes[0]!.code).toBe(4403);
    expect(stack.upstreamCalls()).toBe(calls);
  });

  it('the key in connectionParams reads with that key', async () => {
    const { ws } = client(stack, { Authorization: `Bearer ${CLIENT_KEY}` });
    const { results } = await run(ws, '{ charts { name } }');
    await ws.dispose();
    expect(results[0]!.errors).toBeUndefined();
    expect((results[0]!.data as { charts: unknown[] }).charts.length).toBeGreaterThan(0);
  });
});

describe('allow-list mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      gateway: { protection: { persistedOperations: { mode: 'allow-list', manifest: {} } } },
    });
  });
  afterAll(() => stack.close());

  it('refuses a free-text document with PERSISTED_QUERY_ONLY, before any upstream call', async () => {
    const { ws } = client(stack);
    const calls = stack.upstreamCalls();
    const { results } = await run(ws, '{ charts { name } }');
    await ws.dispose();
    expect(results[0]!.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    expect(results[0]!.data).toBeUndefined();
    expect(stack.upstreamCalls()).toBe(calls);
  });
});

describe('rate-limited client', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      gateway: { protection: { rateLimit: { requests: 3, windowSeconds: 60 } } },
    });
  });
  afterAll(() => stack.close());

  it('an operation over its limit is RATE_LIMITED; a connection over it closes with 4429', async () => {
    // Opening the socket is one request of three, each operation one more.
    const first = client(stack);
    const answers = [
      await run(first.ws, '{ __typename }'),
      await run(first.ws, '{ __typename }'),
      await run(first.ws, '{ __typename }'),
    ];
    expect(answers.slice(0, 2).map((answer) => answer.results[0]!.data)).toEqual([
      { __typename: 'Query' },
      { __typename: 'Query' },
    ]);
    expect(answers[2]!.results[0]!.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    await first.ws.dispose();

    const second = client(stack);
    expect((await run(second.ws, '{ __typename }')).error).toBeDefined();
    await until(() => second.closes.length > 0);
    expect(second.closes[0]!.code).toBe(4429);
    expect(second.closes[0]!.reason).toMatch(/Too many requests/i);
  });
});
