/**
 * GraphQL over HTTP: graphql-http's server audits against the running
 * gateway (every MUST and SHOULD), then the caching headers of GET queries.
 */
import { createHash } from 'node:crypto';
import { serverAudits } from 'graphql-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { askTwice } from '../support/admission.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

describe('graphql-http server audits', () => {
  // Built lazily: the URL is known only once the stack runs.
  const audits = serverAudits({ url: () => `${stack.url}/graphql`, fetchFn: fetch });
  it.each(audits.map((audit) => ({ name: audit.name, fn: audit.fn })))('$name', async ({ fn }) => {
    const result = await fn();
    expect(result.status === 'ok' ? 'ok' : `${result.status}: ${result.reason}`).toBe('ok');
  });
});

const get = (query: string, headers: Record<string, string> = {}, base = stack.url) =>
  fetch(`${base}/graphql?query=${encodeURIComponent(query)}`, {
    headers: { accept: 'application/graphql-response+json', ...headers },
  });

describe('HTTP caching of GET queries', () => {
  const QUERY = '{ charts { name territory } }';

  it('answers a GET query with public Cache-Control (at most an hour, never past midnight UTC) and a weak ETag', async () => {
    const response = await get(QUERY);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/graphql-response\+json/);
    const cacheControl = response.headers.get('cache-control')!;
    expect(cacheControl).toMatch(/^public, max-age=\d+$/);
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)![1]);
    const now = new Date();
    const untilMidnight = Math.ceil(
      (Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) /
        1000,
    );
    expect(maxAge).toBeLessThanOrEqual(Math.min(3600, untilMidnight));
    expect(maxAge).toBeGreaterThan(0);
    expect(response.headers.get('etag')).toMatch(/^W\/"[\w-]+"$/);
    // Accept-Encoding: answers may be compressed (test/compression.spec.ts).
    expect(response.headers.get('vary')).toBe('Accept, Accept-Encoding');
  });

  it('tags the data and its media type alone, the same on a miss (from the result) as read back from the body', async () => {
    const query = '{ topArtistsByStreams(limit: 3) { rank artist { slug history { date } } } }';
    const miss = await get(query);
    const body = (await miss.json()) as { data: unknown };
    const digest = createHash('sha256')
      .update('application/graphql-response+json\n')
      .update(JSON.stringify(body.data))
      .digest('base64url')
      .slice(0, 32);
    expect(miss.headers.get('etag')).toBe(`W/"${digest}"`);
    const hit = await get(query);
    expect(hit.headers.get('etag')).toBe(`W/"${digest}"`);
  });

  it('answers 304 with no body to If-None-Match, though the cost report in the body changed', async () => {
    const first = await get(QUERY);
    const etag = first.headers.get('etag')!;
    const second = await get(QUERY, { 'if-none-match': etag });
    expect(second.status).toBe(304);
    expect(await second.text()).toBe('');
    expect(second.headers.get('etag')).toBe(etag);
    expect(second.headers.get('cache-control')).toMatch(/^public, max-age=/);
    const other = await get(QUERY, { 'if-none-match': 'W/"something-else"' });
    expect(other.status).toBe(200);
  });

  it('gives each media type its own ETag', async () => {
    const json = await get(QUERY, { accept: 'application/json' });
    const graphql = await get(QUERY);
    expect(json.headers.get('etag')).not.toBe(graphql.headers.get('etag'));
    expect(
      (
        await get(QUERY, {
          accept: 'application/json',
          'if-none-match': graphql.headers.get('etag')!,
        })
      ).status,
    ).toBe(200);
  });

  it('does not cache answers with errors, answers about the caller, or POST', async () => {
    const withError = await get('{ artist(slug: "no-such-artist") { name } }');
    expect(withError.status).toBe(200);
    expect(withError.headers.get('cache-control')).toBe('no-store');
    expect(withError.headers.get('etag')).toBeNull();

    const invalid = await get('{ nope }');
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('cache-control')).toBe('no-store');

    const usage = await get('{ apiUsage { used remaining } }');
    expect(usage.headers.get('cache-control')).toBe('no-store');
    expect(usage.headers.get('etag')).toBeNull();

    const post = await stack.query(QUERY);
    expect(post.headers.get('cache-control')).toBe('no-store');
    expect(post.headers.get('etag')).toBeNull();
  });

  it('refuses a GET that is not a query (mutations do not exist; none change state over GET)', async () => {
    const response = await get('mutation { x }');
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('refuses a mutation by GET with the code it gets by POST, and GET’s 405 with Allow', async () => {
    const before = stack.upstreamCalls();
    const mutation = 'mutation { x }';
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const byGet = await get(mutation, { accept });
      expect([byGet.status, byGet.headers.get('allow')], accept).toEqual([405, 'POST']);
      const byPost = await stack.query(mutation, undefined, { accept });
      expect(await byGet.json(), accept).toEqual({ errors: byPost.body.errors });
      expect(byPost.body.errors?.map((error) => error.extensions?.code)).toEqual([
        'OPERATION_NOT_SUPPORTED',
      ]);
    }
    expect(stack.upstreamCalls()).toBe(before);
  });
});

describe('CORS and Vary', () => {
  const origin = 'https://evil.example';
  const corsOf = (response: { status: number; headers: Headers }) => ({
    status: response.status,
    origin: response.headers.get('access-control-allow-origin'),
    vary: response.headers.get('vary'),
  });

  it('every answer that echoes the Origin varies on it, miss or hit, 200 or 304, and keeps Accept', async () => {
    const slug = stack.simulator.data.allArtists()[5]!.slug;
    const query = `{ artist(slug: "${slug}") { followers } }`;
    const miss = await get(query, { origin });
    const etag = miss.headers.get('etag')!;
    // Asked again: its key's second miss, which stores the answer.
    expect(corsOf(await get(query, { origin }))).toEqual(corsOf(miss));
    const hit = await get(query, { origin });
    expect((await hit.json()) as object).toMatchObject({
      extensions: { cost: { responseCache: 'hit' } },
    });
    const notModified = await get(query, { origin, 'if-none-match': etag });
    const echoed = { origin, vary: 'Accept, Accept-Encoding, Origin' };
    expect(corsOf(miss)).toEqual({ status: 200, ...echoed });
    expect(corsOf(hit)).toEqual({ status: 200, ...echoed });
    expect(corsOf(notModified)).toEqual({ status: 304, ...echoed });
    // A stored answer keeps no trace of the origin it was first built for.
    expect(corsOf(await get(query))).toEqual({
      status: 200,
      origin: null,
      vary: 'Accept, Accept-Encoding',
    });

    // Yoga's own 304 and a POST, with the response cache off.
    const yogaOnly = await startStack({
      sharedSimulator: stack.simulator,
      gateway: { answerCache: false },
    });
    try {
      const fromYoga = await get(query, { origin, 'if-none-match': etag }, yogaOnly.url);
      expect(corsOf(fromYoga)).toEqual({ status: 304, ...echoed });
      const post = await yogaOnly.query(query, undefined, { origin });
      expect(corsOf(post)).toEqual({ status: 200, origin, vary: 'Origin, Accept-Encoding' });
    } finally {
      await yogaOnly.close();
    }
  });
});

describe('/graphql/ with a trailing slash', () => {
  const slashed = (query: string, headers: Record<string, string> = {}) =>
    fetch(`${stack.url}/graphql/?query=${encodeURIComponent(query)}`, {
      headers: { accept: 'application/graphql-response+json', ...headers },
    });

  it('is /graphql: the same caching headers, response cache and 304s', async () => {
    const usage = await slashed('{ apiUsage { used } }');
    expect(usage.status).toBe(200);
    expect(usage.headers.get('cache-control')).toBe('no-store');

    const query = '{ charts { name } } # trailing slash';
    const first = await slashed(query);
    expect(first.headers.get('cache-control')).toMatch(/^public, max-age=\d+$/);
    expect(first.headers.get('vary')).toBe('Accept, Accept-Encoding');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\//);
    // Asked again: its key's second miss, which stores the answer.
    await slashed(query);
    const plain = await get(query);
    expect(plain.headers.get('etag')).toBe(etag);
    expect((await plain.json()) as object).toMatchObject({
      extensions: { cost: { responseCache: 'hit' } },
    });
    expect((await slashed(query, { 'if-none-match': etag })).status).toBe(304);

    const body = JSON.stringify({ query: '{ charts { territory } } # trailing slash' });
    const post = () =>
      fetch(`${stack.url}/graphql/`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      }).then((response) => response.json() as Promise<{ extensions: { cost: object } }>);
    await askTwice(post);
    expect((await post()).extensions.cost).toMatchObject({ responseCache: 'hit' });
  });

  it('any other path Yoga would take for the endpoint is not found, and runs nothing', async () => {
    const before = stack.upstreamCalls();
    const query = encodeURIComponent('{ topArtistsByStreams(limit: 3) { rank } }');
    for (const path of [
      `/nope?query=${query}&x=/graphql`,
      `/api/graphql?query=${query}`,
      `/graphql//?query=${query}`,
    ]) {
      expect((await fetch(`${stack.url}${path}`)).status, path).toBe(404);
    }
    const post = await fetch(`${stack.url}/api/graphql`, {
      method: 'POST',
      body: JSON.stringify({ query: '{ topArtistsByStreams(limit: 3) { rank } }' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(post.status).toBe(404);
    expect(stack.upstreamCalls()).toBe(before);
  });
});

describe('HTTP caching in pass-through mode', () => {
  let passThrough: Stack;
  beforeAll(async () => {
    passThrough = await startStack({ passThrough: true, sharedSimulator: stack.simulator });
  });
  afterAll(() => passThrough.close());

  it('is private and varies by Authorization; an invalid key gets 401, never a 304 for cached data', async () => {
    const QUERY = '{ topSongs(limit: 3) { rank } }';
    const valid = await get(QUERY, { authorization: `Bearer ${CLIENT_KEY}` }, passThrough.url);
    expect(valid.status).toBe(200);
    expect(valid.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
    expect(valid.headers.get('vary')).toBe('Accept, Authorization, Accept-Encoding');
    const etag = valid.headers.get('etag')!;

    const revalidated = await get(
      QUERY,
      { authorization: `Bearer ${CLIENT_KEY}`, 'if-none-match': etag },
      passThrough.url,
    );
    expect(revalidated.status).toBe(304);

    const invalid = await get(
      QUERY,
      { authorization: 'Bearer made-up-key', 'if-none-match': etag },
      passThrough.url,
    );
    expect(invalid.status).toBe(401);
    expect(invalid.headers.get('cache-control')).toBe('no-store');
    const body = (await invalid.json()) as { data?: unknown };
    expect(body.data).toBeUndefined();
  });
});
