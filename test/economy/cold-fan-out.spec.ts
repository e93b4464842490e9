/**
 * Cold fan-out: `artist(slug:)` starts the reads its selected children need
 * (history, timeline, songs) together with the profile's, so a cold page is
 * one upstream round trip; an unknown slug costs them once, and nothing once
 * its not-found answer is cached.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

const PAGE = `query ($slug: String!) {
  artist(slug: $slug) { name history { date } milestones { id } songs(first: 3) { totalCount } }
}`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

it("reaches the upstream for the children while the profile's own call is still pending", async () => {
  const artist = stack.simulator.data.allArtists()[5]!;
  const profilePath = `/api/v1/artists/${artist.slug}`;
  // The profile is held back long enough that a gateway waiting for it could not have asked for the rest.
  stack.simulator.injectFault({ kind: 'delay', ms: 3_000 }, { path: profilePath, times: 1 });
  stack.simulator.resetCalls();
  const answer = stack.query(PAGE, { slug: artist.slug });

  const pending = () => stack.simulator.calls.find((call) => call.rawPath === profilePath);
  await until(() => stack.simulator.calls.length >= 4, 0);
  expect(pending()?.status).toBe(0);
  expect(stack.simulator.calls.map((call) => call.rawPath).sort()).toEqual(
    [
      profilePath,
      `${profilePath}/history`,
      `/api/v1/milestones/timeline/${artist.slug}`,
      `/api/v1/songs/${artist.slug}/songs`,
    ].sort(),
  );

  const response = await answer;
  expect(response.body.errors).toBeUndefined();
  expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 4, deduplicated: 0 });
});

it("with the profile held, the children's reads still leave together", async () => {
  const artist = stack.simulator.data.allArtists()[6]!;
  const profilePath = `/api/v1/artists/${artist.slug}`;
  await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', {
    slug: artist.slug,
  });
  // The history is held back: a gateway reading the children one after another would not have
  // asked for the others yet.
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: `${profilePath}/history` });
  stack.simulator.resetCalls();
  const answer = stack.query(PAGE, { slug: artist.slug });
  await until(() => stack.simulator.calls.length >= 3, 0);
  expect(stack.simulator.calls.map((call) => call.rawPath).sort()).toEqual(
    [
      `${profilePath}/history`,
      `/api/v1/milestones/timeline/${artist.slug}`,
      `/api/v1/songs/${artist.slug}/songs`,
    ].sort(),
  );
  release();
  const response = await answer;
  stack.simulator.clearFaults();
  expect(response.body.errors).toBeUndefined();
  expect(response.body.extensions?.cost).toMatchObject({
    upstreamCalls: 3,
    cacheHits: 1,
    deduplicated: 0,
  });
});

it('an unknown slug costs its children once; once its not-found is cached, nothing', async () => {
  stack.simulator.resetCalls();
  const first = await stack.query(PAGE, { slug: 'no-such-artist-x' });
  expect(first.body.data).toEqual({ artist: null });
  expect(first.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  // The answer needs only the profile, yet waits for the children's reads it started: it reports them.
  expect(first.body.extensions?.cost).toMatchObject({ upstreamCalls: 4 });
  expect(stack.upstreamCalls()).toBe(4);

  stack.simulator.resetCalls();
  const second = await stack.query(PAGE, { slug: 'no-such-artist-x' });
  expect(second.body.data).toEqual({ artist: null });
  expect(stack.upstreamCalls()).toBe(0);
});

it("an answer that needs none of its children's reads still waits for them, and reports them", async () => {
  const slug = 'no-such-artist-held';
  const historyPath = `/api/v1/artists/${slug}/history`;
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: historyPath });
  stack.simulator.resetCalls();
  let released = false;
  let answeredWhileHeld: boolean | undefined;
  const answer = stack.query(PAGE, { slug }).then((response) => {
    answeredWhileHeld = !released;
    return response;
  });

  // The profile's not-found (all the answer needs) and two children are answered; the history is held.
  const calls = () => stack.simulator.calls.filter((call) => call.rawPath.includes(slug));
  await until(
    () => calls().length === 4 && calls().filter((call) => call.status !== 0).length === 3,
  );
  // Two whole requests through the gateway: it has read those answers and could have answered.
  for (let round = 0; round < 2; round++) await stack.query('{ __typename }');
  released = true;
  release();
  const response = await answer;
  stack.simulator.clearFaults();

  expect(answeredWhileHeld).toBe(false);
  expect(response.body.data).toEqual({ artist: null });
  expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 4 });
});

it('a child under @include is not read ahead: it may not run', async () => {
  const artist = stack.simulator.data.allArtists()[7]!;
  stack.simulator.resetCalls();
  const response = await stack.query(
    'query ($slug: String!, $h: Boolean!) { artist(slug: $slug) { name history @include(if: $h) { date } } }',
    { slug: artist.slug, h: false },
  );
  expect(response.body.data).toEqual({ artist: { name: artist.name } });
  expect(stack.upstreamCalls()).toBe(1);
});

it('songs whose arguments the resolver refuses are not read ahead, literal or variable', async () => {
  const query =
    'query ($slug: String!, $songs: Int) { artist(slug: $slug) { name songs(first: $songs) { totalCount } } }';
  const cases: [string, Record<string, unknown>][] = [
    ['query ($slug: String!) { artist(slug: $slug) { name songs(first: -1) { totalCount } } }', {}],
    [
      'query ($slug: String!) { artist(slug: $slug) { name songs(after: "zzz") { totalCount } } }',
      {},
    ],
    [query, { songs: -1 }],
    [query, { songs: 101 }],
  ];
  for (const [index, [document, variables]] of cases.entries()) {
    const artist = stack.simulator.data.allArtists()[20 + index]!;
    stack.simulator.resetCalls();
    const response = await stack.query(document, { slug: artist.slug, ...variables });
    expect(response.body.data, document).toEqual({ artist: { name: artist.name, songs: null } });
    expect(response.body.errors?.map((error) => error.extensions?.code)).toEqual([
      'BAD_USER_INPUT',
    ]);
    // The profile alone.
    expect(stack.upstreamCalls(), `${document} ${JSON.stringify(variables)}`).toBe(1);
  }
});

it('songs refuses its arguments before reading, wherever the artist comes from', async () => {
  stack.simulator.resetCalls();
  const response = await stack.query(
    '{ topArtistsByStreams(limit: 2) { artist { songs(first: -1) { totalCount } } } }',
  );
  expect(response.body.data).toEqual({
    topArtistsByStreams: [{ artist: { songs: null } }, { artist: { songs: null } }],
  });
  // The leaderboard alone.
  expect(stack.upstreamCalls()).toBe(1);
});

it('one accepted selection of songs among refused ones is read ahead, once', async () => {
  const artist = stack.simulator.data.allArtists()[30]!;
  stack.simulator.resetCalls();
  const response = await stack.query(
    'query ($slug: String!) { artist(slug: $slug) { bad: songs(first: -1) { totalCount } good: songs(first: 2) { totalCount } } }',
    { slug: artist.slug },
  );
  expect(response.body.data).toMatchObject({
    artist: { bad: null, good: { totalCount: expect.any(Number) } },
  });
  expect(stack.upstreamCalls()).toBe(2);
  expect(response.body.extensions?.cost).toMatchObject({ upstreamCalls: 2, deduplicated: 0 });
});
