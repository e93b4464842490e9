/** The HTTP server around the schema: GraphiQL, health, readiness, graceful stop, request logs. */
import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

describe('HTTP endpoints', () => {
  let stack: Stack;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    stack = await startStack({ gateway: { logger: pino({ level: 'info' }, sink) } });
  });
  afterAll(() => stack.close());

  it('serves GraphiQL with the example operations as tabs, without a CDN', async () => {
    const response = await fetch(`${stack.url}/graphql`, { headers: { accept: 'text/html' } });
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const operation of [
      'ArtistPage',
      'Leaderboards',
      'BrowseArtists',
      'ChartWithTrends',
      'RecentMilestones',
      'ApiUsage',
    ]) {
      expect(html).toContain(`query ${operation}`);
    }
    expect(html).not.toMatch(/<script[^>]+src=["']?https?:/);
  });

  it('answers /health and /ready', async () => {
    expect((await fetch(`${stack.url}/health`)).status).toBe(200);
    const ready = await fetch(`${stack.url}/ready`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, draining: false });
    // The path decides, whatever the query says; a path that only ends like it is not it.
    expect((await fetch(`${stack.url}/ready?probe=1`)).status).toBe(200);
    expect((await fetch(`${stack.url}/graphql/ready`)).status).not.toBe(200);
  });

  it('logs one line per request with the operation, duration and upstream calls, never the key', async () => {
    await stack.query('query TopThree { topSongs(limit: 3) { rank } }');
    const line = lines.find((l) => l.operation === 'TopThree');
    expect(line).toMatchObject({
      msg: 'request',
      method: 'POST',
      path: '/graphql',
      status: 200,
      upstreamCalls: 1,
      cacheHits: 0,
    });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('test-server-key');
  });

  it('logs client errors at info and upstream failures at warn, by code and without a stack trace', async () => {
    const before = lines.length;
    expect(
      (await stack.query('{ artist(slug: "no-such-artist") { name } }')).body.errors?.[0]
        ?.extensions?.code,
    ).toBe('NOT_FOUND');
    expect(
      (await stack.query('{ node(id: "not-a-global-id") { id } }')).body.errors?.[0]?.extensions
        ?.code,
    ).toBe('BAD_USER_INPUT');
    expect((await fetch(`${stack.url}/no-such-path`)).status).toBe(404);
    stack.simulator.injectFault({ kind: 'status', status: 500 }, { path: '/api/v1/charts' });
    try {
      expect((await stack.query('{ charts { name } }')).body.errors?.[0]?.extensions?.code).toBe(
        'UPSTREAM_ERROR',
      );
    } finally {
      stack.simulator.clearFaults();
    }

    const logged = lines.slice(before);
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, code: 'NOT_FOUND', path: 'artist' }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, code: 'BAD_USER_INPUT', path: 'node' }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 40, code: 'UPSTREAM_ERROR', path: 'charts' }),
    );
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, path: '/no-such-path', status: 404, msg: 'request' }),
    );
    expect(logged.filter((line) => (line.level as number) >= 50 || 'err' in line)).toEqual([]);
  });
});

describe('graceful stop', () => {
  it('finishes in-flight requests promptly, then refuses new connections', async () => {
    const stack = await startStack({ simulator: { latencyMs: 400 } });
    const inFlight = stack.query('{ charts { name } }');
    await expect.poll(() => stack.upstreamCalls()).toBe(1);
    const started = performance.now();
    const closing = stack.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((response.body.data as { charts: unknown[] }).charts).toHaveLength(3);
    await closing;
    expect(performance.now() - started).toBeLessThan(900); // did not wait for the 1 s grace period
    await expect(fetch(`${stack.url}/health`)).rejects.toThrow();
  });
});
