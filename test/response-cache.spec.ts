/**
 * The response cache (src/server/response-cache/): a repeated operation is
 * answered from stored bytes, with the checks every answer gets; only
 * complete answers that are the same for everyone are stored.
 */
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { getIntrospectionQuery } from 'graphql';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { connectRedis } from '../src/redis/connection.js';
import { reusingData } from '../src/server/response-cache/recorder.js';
import { SHARED_RESPONSE_RETENTION_MS } from '../src/server/response-cache/stored-response.js';
import { askTwice } from './support/admission.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from './support/redis.js';
import { until } from './support/replicas.js';
import { CLIENT_KEY, type Stack, type StackOptions, startStack } from './support/stack.js';

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
  // Asked again: its key's second miss, which stores the answer.
  await stack.query(query, { slug });
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
    // Asked twice: an answer that may be stored would be, from this second miss on.
    await askTwice(() => stack.query(query));
    expect(cost(await stack.query(query)).responseCache).toBeUndefined();
  }
  const slug = stack.simulator.data.allArtists()[8]!.slug;
  const query = `{ artist(slug: "${slug}") { name } }`;
  stack.simulator.injectFault({ kind: 'status', status: 500 }, { path: `/api/v1/artists/${slug}` });
  expect((await stack.query(query)).body.data).toEqual({ artist: null });
  // Failed again: its key's second miss, which would store an answer that may be stored. A read
  // that succeeds in between keeps the circuit closed (five failures in a row open it).
  const other = stack.simulator.data.allArtists()[9]!.slug;
  expect((await stack.query(`{ artist(slug: "${other}") { name } }`)).body.errors).toBeUndefined();
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
  // Asked again: its key's second miss, which stores the answer.
  await fetch(url, { headers });
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
  await askTwice(() => passThrough.query(query, undefined, good));
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

it('a stored answer is written on its miss with the data encoded once, byte for byte as JSON.stringify would encode it as UTF-8', () => {
  fc.assert(
    fc.property(
      fc.record(
        { data: fc.jsonValue(), extensions: fc.jsonValue(), hasNext: fc.boolean() },
        { requiredKeys: ['data'] },
      ),
      (result) => {
        const encode = reusingData(result.data, JSON.stringify(result.data));
        expect(String(encode({ ...result, stringify: encode } as never))).toBe(
          JSON.stringify(result),
        );
      },
    ),
  );
  // Data replaced after it was encoded is encoded again, not taken from the stale text.
  const encode = reusingData({ a: 1 }, '{"a":1}');
  expect(String(encode({ data: { a: 2 } }))).toBe('{"data":{"a":2}}');
});

it('a miss writes non-ASCII data as UTF-8, and hands its cache entry exactly the data bytes it wrote', () => {
  const data = { artist: { name: 'Ọlámidé', song: '💃 Ojuelegba' } };
  const result = { data, extensions: { cost: { upstreamCalls: 1 } } };
  let kept: Buffer | undefined;
  const encode = reusingData(data, JSON.stringify(data), (bytes) => {
    kept = bytes;
  });
  const written = encode(result);
  expect(Buffer.isBuffer(written)).toBe(true);
  expect(written).toEqual(Buffer.from(JSON.stringify(result), 'utf8'));
  expect(kept).toEqual(Buffer.from(JSON.stringify(data), 'utf8'));
});

/** The stack's cache settings with these changed. */
function cacheWith(changes: object): NonNullable<StackOptions['gateway']>['cache'] {
  return {
    ttlMs: 60_000,
    notFoundTtlMs: 10_000,
    retentionMs: 600_000,
    maxEntries: 10_000,
    maxBytes: 64 * 1024 * 1024,
    ...changes,
  };
}

const ARTIST_PAGE = readFileSync('examples/operations/ArtistPage.graphql', 'utf8');
/** About 80 KB of answer, built from no upstream read. */
const INTROSPECTION = getIntrospectionQuery();

it('answers that cost nothing never push out upstream answers that were paid for: stored answers have their own bound', async () => {
  const small = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { cache: cacheWith({ maxBytes: 512 * 1024, responseMaxBytes: 256 * 1024 }) },
  });
  try {
    const slug = stack.simulator.data.allArtists()[21]!.slug;
    const paid = cost(await small.query(ARTIST_PAGE, { slug })).upstreamCalls as number;
    expect(paid).toBeGreaterThan(3);
    // Eight distinct introspections, 640 KB in all: more than either bound holds. Each is asked
    // twice, so that it is stored.
    for (let i = 0; i < 8; i++) {
      const answer = await askTwice(() => small.query(`${INTROSPECTION}\n# comment ${i}`));
      expect(answer.body.errors).toBeUndefined();
      expect(cost(answer)).toMatchObject({ upstreamCalls: 0, cacheHits: 0 });
    }
    // Another document over the same records runs, and finds every one still cached.
    const again = await small.query(`${ARTIST_PAGE}\n# again`, { slug });
    expect(cost(again)).toMatchObject({ upstreamCalls: 0, cacheHits: paid });
    // Within its own bound the response cache still answers: the newest entry is there.
    expect(cost(await small.query(`${INTROSPECTION}\n# comment 7`)).responseCache).toBe('hit');
  } finally {
    await small.close();
  }
});

it("counts a stored answer's gzip part from the first hit that makes it: an answer weighs what it holds", async () => {
  const pages = [20, 19].map(
    (limit) =>
      `{ topArtistsByStreams(limit: ${limit}) { rank artist { slug name history { date dailyStreams } } } }`,
  );
  // What each answer weighs stored (its data as text and as bytes, its key, the bookkeeping):
  // two fit the bound, but not with a gzip part of more than a kilobyte beside them.
  const weights = await Promise.all(
    pages.map(async (page) => {
      const data = JSON.stringify((await stack.query(page)).body.data);
      const bytes = Buffer.byteLength(data);
      return (bytes === data.length ? bytes : 2 * data.length) + bytes + 52 + 256;
    }),
  );
  const bounded = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { cache: cacheWith({ responseMaxBytes: weights[0]! + weights[1]! + 1_024 }) },
  });
  const gzip = { 'accept-encoding': 'gzip' };
  const seen = async (page: string) => cost(await bounded.query(page, {}, gzip)).responseCache;
  try {
    // Each asked twice, so that it is stored.
    for (let round = 0; round < 2; round++)
      expect([await seen(pages[0]!), await seen(pages[1]!)]).toEqual([undefined, undefined]);
    // Both stored: the first hit in gzip compresses its answer, which then no longer fits beside the other.
    expect(await seen(pages[0]!)).toBe('hit');
    expect(await seen(pages[1]!)).toBeUndefined();
  } finally {
    await bounded.close();
  }
});

it("stores an answer from its key's second miss on: the second request is still a miss, the third a hit", async () => {
  const query = '{ topSongs(limit: 4) { rank song { title } } } # asked once';
  const seen: unknown[] = [];
  for (let i = 0; i < 3; i++) {
    const answer = await stack.query(query);
    expect(answer.body.errors).toBeUndefined();
    seen.push(cost(answer).responseCache);
  }
  expect(seen).toEqual([undefined, undefined, 'hit']);
});

it('never stores an answer whose request differs every time (an unused variable): it pushes nothing out', async () => {
  const bounded = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { cache: cacheWith({ responseMaxBytes: 256 * 1024 }) },
  });
  try {
    const kept = '{ charts { name } } # kept';
    await askTwice(() => bounded.query(kept));
    expect(cost(await bounded.query(kept)).responseCache).toBe('hit');
    // Eight introspections, 640 KB in all, each request its own: more than the bound holds,
    // had any been stored.
    for (let i = 0; i < 8; i++) {
      const answer = await bounded.query(INTROSPECTION, { unused: i });
      expect(answer.body.errors).toBeUndefined();
      expect(cost(answer).responseCache).toBeUndefined();
    }
    // None was: the answer stored before them is still there.
    expect(cost(await bounded.query(kept)).responseCache).toBe('hit');
  } finally {
    await bounded.close();
  }
});

it('two first requests at once admit their key: both are misses, the next request a hit', async () => {
  const slug = stack.simulator.data.allArtists()[30]!.slug;
  const query = `{ artist(slug: "${slug}") { name } } # at once`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: `/api/v1/artists/${slug}` });
  const both = [stack.query(query), stack.query(query)];
  // Both at Yoga before either answers: the upstream read they wait for is held.
  const active = async () =>
    Number(
      /^gateway_answers\{[^}]*="active"\} (\d+)/m.exec(await stack.gateway.metrics.scrape())?.[1],
    );
  await until(async () => (await active()) === 2);
  release();
  expect((await Promise.all(both)).map((answer) => cost(answer).responseCache)).toEqual([
    undefined,
    undefined,
  ]);
  expect(cost(await stack.query(query))).toMatchObject({ upstreamCalls: 0, responseCache: 'hit' });
});

it('with Redis, only answers built from upstream reads are shared (under response:, for at most an hour)', async () => {
  const prefix = uniquePrefix();
  const redis = new Redis(SHARED_REDIS_URL);
  const shared = await startStack({
    sharedSimulator: stack.simulator,
    gateway: {
      // Fresh for two days: the hour bound is Redis's, not the answer's.
      cache: cacheWith({ ttlMs: 48 * 3600 * 1000 }),
      redis: await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' })),
    },
  });
  try {
    const free = ['{ __typename }', INTROSPECTION];
    // Each asked twice, so that it is stored.
    for (const query of free) await askTwice(() => shared.query(query));
    for (const query of free) expect(cost(await shared.query(query)).responseCache).toBe('hit');
    const slug = stack.simulator.data.allArtists()[22]!.slug;
    await askTwice(() => shared.query(`{ artist(slug: "${slug}") { name } }`));
    // Stored answers are written in turn on one connection: once this one is there, the others would be.
    const responseKeys = async () =>
      [...(await keysUnder(redis, prefix))].filter(([key]) => key.startsWith(`${prefix}response:`));
    await until(async () => (await responseKeys()).length > 0);
    const keys = await responseKeys();
    expect(keys).toHaveLength(1);
    const [, ttl] = keys[0]!;
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(SHARED_RESPONSE_RETENTION_MS);
    // The upstream answer stays in its own namespace; nothing else was written for the free answers.
    const cacheKeys = [...(await keysUnder(redis, prefix)).keys()].filter((key) =>
      key.startsWith(`${prefix}cache:`),
    );
    expect(cacheKeys).toHaveLength(1);
  } finally {
    await shared.close();
    await deleteUnder(redis, prefix);
    redis.disconnect();
  }
});

it('a POST is answered from stored bytes only in a media type Yoga reads as JSON; any other gets what Yoga says', async () => {
  const body = JSON.stringify({ query: '{ charts { name } } # media types' });
  const post = (base: string, contentType: string) =>
    fetch(`${base}/graphql`, {
      method: 'POST',
      body,
      headers: { 'content-type': contentType, accept: 'application/graphql-response+json' },
    });
  // Asked twice, so that its answer is stored.
  expect((await askTwice(() => post(stack.url, 'application/json'))).status).toBe(200);
  for (const contentType of ['multipart/form-data; boundary=json', 'text/x-json-nope']) {
    const refused = await post(stack.url, contentType);
    expect(refused.status, contentType).toBe(415);
    const answer = (await refused.json()) as { errors: { extensions: { code: string } }[] };
    expect(answer.errors[0]!.extensions.code).toBe('BAD_REQUEST');
  }
  for (const contentType of [
    'application/json; charset=utf-8',
    'application/graphql+json',
    'application/json, text/plain',
  ]) {
    const hit = (await (await post(stack.url, contentType)).json()) as {
      extensions: { cost: { responseCache?: string } };
    };
    expect(hit.extensions.cost.responseCache, contentType).toBe('hit');
  }

  // Whatever the media type, the status is the one Yoga alone gives.
  const yogaOnly = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { answerCache: false },
  });
  try {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(
          'application/json',
          'application/graphql+json',
          'application/graphql',
          'text/x-json',
          'multipart/form-data',
          'Application/JSON',
          '',
        ),
        fc.constantFrom(
          '',
          ';',
          '; charset=utf-8',
          '; boundary=json',
          'x',
          '-seq',
          ' ',
          ', application/json',
        ),
        async (type, suffix) => {
          const contentType = `${type}${suffix}`;
          const [cached, yoga] = await Promise.all([
            post(stack.url, contentType),
            post(yogaOnly.url, contentType),
          ]);
          await Promise.all([cached.arrayBuffer(), yoga.arrayBuffer()]);
          expect(cached.status, contentType).toBe(yoga.status);
        },
      ),
      { numRuns: 40 },
    );
  } finally {
    await yogaOnly.close();
  }
});
