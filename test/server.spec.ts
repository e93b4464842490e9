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
    for (const operation of ['ArtistPage', 'Leaderboards', 'BrowseArtists', 'ChartWithTrends', 'RecentMilestones', 'ApiUsage']) {
      expect(html).toContain(`query ${operation}`);
    }
    expect(html).not.toMatch(/<script[^>]+src=["']?https?:/);
  });

  it('answers /health and /ready', async () => {
    expect((await fetch(`${stack.url}/health`)).status).toBe(200);
    expect((await fetch(`${stack.url}/ready`)).status).toBe(200);
  });

  it('logs one line per request with the operation, duration and upstream calls, never the key', async () => {
    await stack.query('query TopThree { topSongs(limit: 3) { rank } }');
    const line = lines.find((l) => l.operation === 'TopThree');
    expect(line).toMatchObject({ msg: 'request', method: 'POST', path: '/graphql', status: 200, upstreamCalls: 1, cacheHits: 0 });
    expect(typeof line?.durationMs).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('test-server-key');
  });
});

describe('graceful stop', () => {
  it('finishes in-flight requests promptly, then refuses new connections', async () => {
    const stack = await startStack({ simulator: { latencyMs: 400 } });
    const inFlight = stack.query('{ charts { name } }');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const closing = stack.close();
    const response = await inFlight;
    expect(response.status).toBe(200);
    expect((response.body.data as { charts: unknown[] }).charts).toHaveLength(3);
    await closing;
    expect(Date.now() - started).toBeLessThan(900); // did not wait for the 1 s grace period
    await expect(fetch(`${stack.url}/health`)).rejects.toThrow();
  });
});
