/**
 * The response cache (src/server/response-cache/): a repeated operation is
 * answered from stored bytes, with the checks every answer gets; only
 * complete answers that are the same for everyone are stored.
 */
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { reusingData } from '../src/server/response-cache/recorder.js';
import { CLIENT_KEY, type Stack, startStack } from './support/stack.js';

let stack: Stack;
let passThrough: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: { protection: { rateLimit: { requests: 1_000, windowSeconds: 60 } } },
  });
  passThrough = await startStack({ passThrough: true });
});
afterAll(async () => {
  await stack.close();
  await passThrough.close();
});
afterEach(() => stack.simulator.clearFaults());

const cost = (response: { body: { extensions?: Record<string, unknown> } }) =>
  response.body.extensions?.cost as Record<string, unknown>;

it('answers a repeated operation from stored bytes: same data, 0 upstream calls, and says so', async () => {
  const slug = stack.simulator.data.allArtists()[3]!.slug;
  const query = 'query One($slug: String!) { artist(slug: $slug) { name totalStreams } }';
  const first = await stack.query(query, { slug });
  expect(cost(first)).toMatchObject({ upstreamCalls: 1 });
  expect(cost(first).responseCache).toBeUndefined();
  const before = stack.upstreamCalls();
  const second = await stack.query(query, { slug });
  expect(second.body.data).toEqual(first.body.data);
  expect(cost(second)).toMatchObject({
    upstreamCalls: 0,
    responseCache: 'hit',
    budget: { dailyLimit: 1000 },
  });
  expect(stack.upstreamCalls()).toBe(before);
  expect(second.headers.get('content-type')).toBe(first.headers.get('content-type'));
  // Other variables are another answer.
  const other = await stack.query(query, { slug: stack.simulator.data.allArtists()[4]!.slug });
  expect(cost(other).responseCache).toBeUndefined();
});

it('never stores an answer with errors, an answer about the caller, or one served stale', async () => {
  for (const query of [
    '{ artist(slug: "no-such-artist-rc") { name } }',
    '{ apiUsage { used remaining } }',
  ]) {
    await stack.query(query);
    expect(cost(await stack.query(query)).responseCache).toBeUndefined();
  }
  const slug = stack.simulator.data.allArtists()[8]!.slug;
  const query = `{ artist(slug: "${slug}") { name } }`;
  stack.simulator.injectFault({ kind: 'status', status: 500 }, { path: `/api/v1/artists/${slug}` });
  const failed = await stack.query(query);
  expect(failed.body.data).toEqual({ artist: null });
  stack.simulator.clearFaults();
  const healed = await stack.query(query);
  expect(healed.body.errors).toBeUndefined();
  expect(cost(healed).responseCache).toBeUndefined();
});

it('GET hits keep the ETag, Cache-Control and 304 of the HTTP cache', async () => {
  const url = `${stack.url}/graphql?query=${encodeURIComponent('{ charts { name territory } }')}`;
  const headers = { accept: 'application/graphql-response+json' };
  const first = await fetch(url, { headers });
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^W\//);
  const hit = await fetch(url, { headers });
  expect(
    ((await hit.json()) as { extensions: { cost: { responseCache: string } } }).extensions.cost
      .responseCache,
  ).toBe('hit');
  expect(hit.headers.get('etag')).toBe(etag);
  expect(hit.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
  const notModified = await fetch(url, { headers: { ...headers, 'if-none-match': etag! } });
  expect(notModified.status).toBe(304);
});

it('pass-through: only a key the upstream accepted is answered from the cache; any other is checked as before', async () => {
  const query = '{ topSongs(limit: 2) { rank } }';
  const good = { authorization: `Bearer ${CLIENT_KEY}` };
  await passThrough.query(query, undefined, good);
  expect(cost(await passThrough.query(query, undefined, good)).responseCache).toBe('hit');
  const before = passThrough.upstreamCalls();
  const bogus = await passThrough.query(query, undefined, { authorization: 'Bearer made-up-key' });
  expect(bogus.status).toBe(401);
  expect(bogus.body.data).toBeUndefined();
  expect(passThrough.upstreamCalls()).toBe(before + 1);
  expect((await passThrough.query(query)).status).toBe(401);
});

it('hits count against the per-client rate limit', async () => {
  const limited = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { protection: { rateLimit: { requests: 3, windowSeconds: 60 } } },
  });
  try {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await limited.query('{ charts { name } }')).status);
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  } finally {
    await limited.close();
  }
});

it('a stored answer is written on its miss with the data encoded once, byte for byte as JSON.stringify would', () => {
  fc.assert(
    fc.property(
      fc.record(
        { data: fc.jsonValue(), extensions: fc.jsonValue(), hasNext: fc.boolean() },
        { requiredKeys: ['data'] },
      ),
      (result) => {
        const encode = reusingData(result.data, JSON.stringify(result.data));
        expect(encode({ ...result, stringify: encode } as never)).toBe(JSON.stringify(result));
      },
    ),
  );
  // Data replaced after it was encoded is encoded again, not taken from the stale text.
  const encode = reusingData({ a: 1 }, '{"a":1}');
  expect(encode({ data: { a: 2 } })).toBe('{"data":{"a":2}}');
});
