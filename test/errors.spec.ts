/** Upstream failures become GraphQL errors with stable codes, at the field that needed them, with partial data. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { maskError } from '../src/schema/errors.js';
import type { Fault } from '../src/simulator/index.js';
import { type GraphQLResponse, SERVER_KEY, type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      retries: 0,
      client: {
        connectTimeoutMs: 500,
        headersTimeoutMs: 500,
        bodyTimeoutMs: 500,
        maxConcurrency: 8,
        maxQueue: 100,
        maxBodyBytes: 64 * 1024,
      },
    },
  });
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.clearFaults());

const artists = () => stack.simulator.data.allArtists();
let nextVictim = 1;

/**
 * Asks for two artists: the top one (the sibling that must still resolve) and
 * a fresh one whose upstream call the fault hits. `artist` is nullable, so
 * the error stays at its field.
 */
async function withVictim(fault: Fault) {
  const victim = artists()[nextVictim++]!.slug;
  stack.simulator.injectFault(fault, { path: `/api/v1/artists/${victim}`, times: 10 });
  return stack.query(
    'query ($top: String!, $victim: String!) { top: artist(slug: $top) { name } victim: artist(slug: $victim) { name } }',
    {
      top: artists()[0]!.slug,
      victim,
    },
  );
}

function expectPartial(response: GraphQLResponse, code: string) {
  expect(response.status).toBe(200);
  expect(response.body.data).toEqual({ top: { name: artists()[0]!.name }, victim: null });
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors?.[0]).toMatchObject({ path: ['victim'], extensions: { code } });
  return response.body.errors![0]!;
}

describe('error mapping', () => {
  it('404 → null with NOT_FOUND at the field, siblings resolved', async () => {
    const response = await stack.query(
      'query ($top: String!) { top: artist(slug: $top) { name } victim: artist(slug: "no-such-artist") { name } }',
      {
        top: artists()[0]!.slug,
      },
    );
    expect(expectPartial(response, 'NOT_FOUND').message).toBe('Artist "no-such-artist" not found');
  });

  it('unknown chart → null with NOT_FOUND', async () => {
    const response = await stack.query('{ chart(name: "nope", territory: "NG") { week } }');
    expect(response.body.data).toEqual({ chart: null });
    expect(response.body.errors?.[0]).toMatchObject({
      message: 'Chart "nope/NG" not found',
      path: ['chart'],
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('a failing root field takes only itself: its siblings stay in data (contract v2)', async () => {
    stack.simulator.injectFault(
      { kind: 'status', status: 500 },
      { path: '/api/v1/trending/songs', times: 10 },
    );
    const response = await stack.query(
      '{ trendingSongs { rank } topArtistsByStreams(limit: 2) { rank artist { slug } } }',
    );
    expect(response.body.data?.trendingSongs).toBeNull();
    expect(response.body.data?.topArtistsByStreams).toHaveLength(2);
    expect(response.body.errors).toHaveLength(1);
    expect(response.body.errors?.[0]).toMatchObject({
      path: ['trendingSongs'],
      extensions: { code: 'UPSTREAM_ERROR' },
    });
  });

  it('400 → BAD_USER_INPUT', async () => {
    const error = expectPartial(
      await withVictim({
        kind: 'status',
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'Invalid parameters' },
      }),
      'BAD_USER_INPUT',
    );
    expect(error).toMatchObject({
      message: 'The upstream API refused the parameters of the artist request',
      extensions: { upstreamStatus: 400 },
    });
  });

  it('5xx → UPSTREAM_ERROR, without the upstream URL or key', async () => {
    const response = await withVictim({ kind: 'status', status: 500 });
    expect(expectPartial(response, 'UPSTREAM_ERROR')).toMatchObject({
      extensions: { upstreamStatus: 500 },
    });
    expect(JSON.stringify(response.body)).not.toContain(stack.simulator.url);
    expect(JSON.stringify(response.body)).not.toContain(SERVER_KEY);
  });

  it('timeout → UPSTREAM_ERROR', async () => {
    const started = Date.now();
    const error = expectPartial(await withVictim({ kind: 'hang' }), 'UPSTREAM_ERROR');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toBe('The upstream API did not answer in time');
  });

  it('a reset connection → UPSTREAM_ERROR', async () => {
    expectPartial(await withVictim({ kind: 'reset' }), 'UPSTREAM_ERROR');
  });

  it.each([
    ['truncated JSON', { kind: 'raw', body: '{"slug": "x", "name": "Trunc' }],
    [
      'an HTML error page',
      { kind: 'raw', contentType: 'text/html', body: '<html><body>Bad gateway</body></html>' },
    ],
    [
      'a 200 with an error body',
      { kind: 'raw', body: '{"statusCode":500,"error":"Internal Server Error","message":"oops"}' },
    ],
    ['wrong types', { kind: 'raw', body: '{"slug":["x"],"name":{"first":"A"}}' }],
    ['a body larger than the limit', { kind: 'stream', bytes: 10 * 1024 * 1024 }],
  ] as const)('%s → UPSTREAM_INVALID_RESPONSE for that field only', async (_, fault) => {
    expectPartial(await withVictim(fault), 'UPSTREAM_INVALID_RESPONSE');
  });

  it('connection refused → UPSTREAM_ERROR', async () => {
    const other = await startStack({ gateway: { retries: 0 } });
    await other.simulator.stop();
    try {
      const response = await other.query('{ charts { name } }');
      expect(response.body.errors?.[0]).toMatchObject({
        message: 'The upstream API could not be reached',
        extensions: { code: 'UPSTREAM_ERROR' },
      });
    } finally {
      await other.simulator.start();
      await other.close();
    }
  });

  it('429 → RATE_LIMITED with resetsAt, and no further calls with that key today', async () => {
    const response = await withVictim({
      kind: 'status',
      status: 429,
      body: {
        statusCode: 429,
        error: 'Too Many Requests',
        message: 'Daily limit of 1000 requests reached. Resets at midnight UTC.',
      },
    });
    const midnight = new Date();
    midnight.setUTCHours(24, 0, 0, 0);
    expect(expectPartial(response, 'RATE_LIMITED')).toMatchObject({
      message: `The daily upstream request budget of this API key is spent; it resets at ${midnight.toISOString()}`,
      extensions: { resetsAt: midnight.toISOString() },
    });
    const before = stack.upstreamCalls();
    const after = await stack.query('{ charts { name } }');
    expect(after.body.errors?.[0]).toMatchObject({
      extensions: { code: 'RATE_LIMITED', resetsAt: midnight.toISOString() },
    });
    expect(stack.upstreamCalls()).toBe(before);
  });
});

describe('masking', () => {
  it('turns an unexpected error into INTERNAL_SERVER_ERROR without its message or stack', () => {
    const masked = maskError(new TypeError('secret detail at /srv/app.js:10'), 'Unexpected error.');
    expect(masked.message).toBe('Unexpected error.');
    expect((masked as { extensions?: unknown }).extensions).toEqual({
      code: 'INTERNAL_SERVER_ERROR',
    });
    expect(JSON.stringify(masked)).not.toContain('secret');
  });

  it('answers a GraphQL syntax error with its own message', async () => {
    const response = await stack.query('{ artist(slug: ');
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.message).toMatch(/Syntax Error/);
  });
});
