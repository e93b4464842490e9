/**
 * The miss lane answers what Yoga would have answered, byte for byte where
 * the bytes do not carry the time: two gateways, one with the lane and one
 * without, each over its own simulator of the same data, are sent the same
 * requests in the same order, and every answer's status, headers and body
 * must be equal. The lane must also have answered (else the comparison
 * proves nothing): its answers parse nothing, so the gateway with it counts
 * fewer parses in Yoga's own metric.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ARTIST_PAGE_QUERY } from '../../bench/reference-queries.js';
import { scrape, total } from '../support/prometheus.js';
import { CLIENT_KEY, type Stack, type StackOptions, startStack } from '../support/stack.js';

const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
});

interface Pair {
  readonly lane: Stack;
  readonly yoga: Stack;
}

async function pair(options: StackOptions = {}): Promise<Pair> {
  const lane = await startStack(options);
  const yoga = await startStack({
    ...options,
    gateway: { ...options.gateway, missLane: false },
  });
  stacks.push(lane, yoga);
  return { lane, yoga };
}

interface Answer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Headers that carry the time or the connection, not the answer. */
const TRANSIENT = new Set(['date', 'connection', 'keep-alive']);

/** A POST of `body` as JSON, or with `get`, a GET of `body`'s members as search parameters. */
async function ask(
  stack: Stack,
  body: Record<string, unknown>,
  headers: Record<string, string>,
  get = false,
): Promise<Answer> {
  const search = new URLSearchParams(
    Object.entries(body).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
  const response = await fetch(
    get ? `${stack.url}/graphql?${search}` : `${stack.url}/graphql`,
    get
      ? { headers }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify(body),
        },
  );
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!TRANSIENT.has(name)) kept[name] = name === 'content-type' ? value.toLowerCase() : value;
  });
  return { status: response.status, headers: kept, body: await response.text() };
}

/** Sends one request to both gateways and expects the same answer from each. */
async function same(
  { lane, yoga }: Pair,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
  get = false,
): Promise<Answer> {
  const fromLane = await ask(lane, body, headers, get);
  const fromYoga = await ask(yoga, body, headers, get);
  expect(fromLane).toEqual(fromYoga);
  return fromLane;
}

const parses = async (stack: Stack) =>
  total(await scrape(`${stack.url}/metrics`), 'graphql_envelop_phase_parse_count');

const ARTIST = 'query Artist($slug: String!) { artist(slug: $slug) { name slug followers } }';

/** ARTIST asked twice through Yoga (compiled at its second run), so that the lane knows it; then the artists. */
async function taught(both: Pair, headers: Record<string, string> = {}) {
  const artists = both.lane.simulator.data.allArtists();
  for (const { slug } of artists.slice(0, 2))
    await same(both, { query: ARTIST, variables: { slug } }, headers);
  return artists;
}

const slugsOf = (both: Pair, count: number) =>
  both.lane.simulator.data
    .allArtists()
    .slice(0, count)
    .map((artist) => artist.slug);

describe('the miss lane', () => {
  it('answers misses of a page as Yoga does: data, reports, headers, media types, CORS', async () => {
    const both = await pair();
    const slugs = slugsOf(both, 8);
    const accepts: Record<string, string>[] = [
      {},
      { accept: 'application/json' },
      { accept: 'application/graphql-response+json, application/json;q=0.9' },
      { accept: 'application/json', origin: 'https://app.example' },
    ];
    // Each Accept header is taught by Yoga's answers before the lane answers with it.
    for (const [index, slug] of slugs.entries())
      for (const headers of accepts) {
        const answer = await same(
          both,
          { query: ARTIST_PAGE_QUERY, variables: { slug }, operationName: 'ArtistPage' },
          headers,
        );
        expect(answer.status, `${slug} ${index}`).toBe(200);
      }
    expect(await parses(both.lane)).toBeLessThan((await parses(both.yoga)) - slugs.length);
  });

  it('answers partial data, masked upstream failures and refusals as Yoga does', async () => {
    const both = await pair();
    const [first, , third] = await taught(both);
    // A slug the upstream does not know: NOT_FOUND, with data.
    const missing = await same(both, { query: ARTIST, variables: { slug: 'no-such-artist' } });
    expect(missing.body).toContain('NOT_FOUND');
    // An upstream that fails: the error as Yoga masks and codes it.
    for (const { simulator } of [both.lane, both.yoga])
      simulator.injectFault(
        { kind: 'status', status: 500 },
        { path: `/api/v1/artists/${third!.slug}` },
      );
    const failed = await same(both, { query: ARTIST, variables: { slug: third!.slug } });
    expect(failed.body).toContain('"errors"');
    // Variables graphql-js refuses, and variables of the wrong shape: Yoga's own errors.
    await same(both, { query: ARTIST, variables: { slug: 42 } });
    await same(both, { query: ARTIST, variables: {} });
    await same(both, { query: ARTIST, variables: [] });
    // Members Yoga does not know, and a persisted-operation extension: Yoga's to refuse.
    await same(both, { query: ARTIST, variables: { slug: first!.slug }, other: 1 });
    await same(both, {
      query: ARTIST,
      variables: { slug: first!.slug },
      extensions: { persistedQuery: { version: 1, sha256Hash: 'x'.repeat(64) } },
    });
    expect(await parses(both.lane)).toBeLessThan(await parses(both.yoga));
    // Its answers count in the series Yoga's count in: requests, executions, errors, spending.
    const [lane, yoga] = await Promise.all(
      [both.lane, both.yoga].map((stack) => scrape(`${stack.url}/metrics`)),
    );
    for (const [name, labels] of [
      ['graphql_envelop_request', {}],
      ['graphql_envelop_phase_execute_count', {}],
      ['graphql_envelop_error_result', { phase: 'execute', path: 'artist' }],
      ['gateway_upstream_budget_spent_total', {}],
    ] as const)
      expect(total(lane!, name, labels), name).toBe(total(yoga!, name, labels));
    expect(total(lane!, 'graphql_envelop_error_result', { phase: 'execute' })).toBeGreaterThan(0);
  });

  it('answers GET misses as Yoga does: ETag, Cache-Control, Vary, a 304, no-store for errors', async () => {
    const both = await pair();
    const slugs = slugsOf(both, 6);
    const headers = { accept: 'application/json', origin: 'https://app.example' };
    for (const slug of slugs) {
      const answer = await same(both, { query: ARTIST, variables: { slug } }, headers, true);
      expect(answer.headers['cache-control']).toMatch(/^public, max-age=/);
      // The same URL again, now with the answer's ETag: a 304, stored or not.
      const etag = answer.headers.etag!;
      const again = await same(
        both,
        { query: ARTIST, variables: { slug } },
        { ...headers, 'if-none-match': etag },
        true,
      );
      expect(again.status).toBe(304);
    }
    const missing = await same(
      both,
      { query: ARTIST, variables: { slug: 'no-such-artist' }, operationName: 'Artist' },
      headers,
      true,
    );
    expect(missing.headers['cache-control']).toBe('no-store');
    // Parameters Yoga reads otherwise, or refuses: Yoga's.
    await same(both, { query: ARTIST, variables: '{"slug":', operationName: 'Artist' }, {}, true);
    await same(
      both,
      { query: ARTIST, variables: { slug: slugs[0] }, documentId: 'x' },
      headers,
      true,
    );
    expect(await parses(both.lane)).toBeLessThan((await parses(both.yoga)) - slugs.length);
  });

  it('stores an answer at its second miss, as Yoga does, and answers the third from it', async () => {
    const both = await pair();
    const [, , third] = await taught(both);
    const body = { query: ARTIST, variables: { slug: third!.slug } };
    for (let round = 0; round < 3; round += 1) await same(both, body);
    for (const stack of [both.lane, both.yoga]) stack.simulator.resetCalls();
    const hit = await same(both, body);
    expect(JSON.parse(hit.body).extensions.cost).toMatchObject({ responseCache: 'hit' });
    expect(both.lane.upstreamCalls()).toBe(0);
  });

  it('in pass-through mode, answers accepted keys only; an unknown key is Yoga’s to prove', async () => {
    const both = await pair({ passThrough: true });
    const key = { authorization: `Bearer ${CLIENT_KEY}` };
    const [first, , third] = await taught(both, key);
    const before = await parses(both.lane);
    await same(both, { query: ARTIST, variables: { slug: third!.slug } }, key);
    expect(await parses(both.lane)).toBe(before);
    // A key never seen: Yoga proves it (the upstream refuses it) and answers 401.
    const unknown = await same(
      both,
      { query: ARTIST, variables: { slug: first!.slug } },
      { authorization: 'Bearer never-seen-key' },
    );
    expect(unknown.status).toBe(401);
    expect(await parses(both.lane)).toBe(before + 1);
  });
});
