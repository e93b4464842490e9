/**
 * The reference queries and the exact number of upstream calls each must make,
 * cold (empty cache) and warm (same query again), counted at the simulator.
 * Each expected figure is the minimum by hand: one call per distinct upstream
 * resource the selected fields cannot do without.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { offsetToCursor } from '../../src/schema/connections.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** Each case starts cold: a new gateway (empty cache) against the same simulator. */
let fresh: Stack | undefined;
beforeEach(async () => {
  fresh = await startStack({ sharedSimulator: stack.simulator });
});
afterEach(() => fresh?.close());
const gateway = () => fresh!;

const data = () => stack.simulator.data;

interface Reference {
  readonly name: string;
  readonly query: string;
  readonly variables?: () => Record<string, unknown>;
  /** Hand-computed minimum with a cold cache, and the reasoning. */
  readonly cold: () => number;
  readonly why: string;
}

const distinctArtistsOfRecentMilestones = (count: number) =>
  new Set(data().recentMilestones({ page: 1, limit: 100 }).data.slice(0, count).map((m) => m.artistSlug)).size;

const distinctChartSongs = (name: string, territory: string) =>
  new Set(data().chart(name, territory)!.data.map((e) => `${e.songTitle}\u0000${e.artistName}`)).size;

const REFERENCES: Reference[] = [
  {
    name: 'artist page: profile, awards, chart positions, top songs, songs, history, milestones',
    query: `query ($slug: String!) { artist(slug: $slug) {
      name followers monthlyListeners awards { name won } chartPositions { position chart { name territory } }
      topSongs { title totalStreams } songs(first: 20) { totalCount nodes { title } }
      history { date dailyStreams } milestones { threshold crossedAt song { title } } } }`,
    variables: () => ({ slug: data().allArtists()[0]!.slug }),
    cold: () => 4,
    why: 'profile + songs of artist + history + timeline',
  },
  {
    name: 'top 50 artists by streams, names only',
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name } } }',
    cold: () => 1,
    why: 'the leaderboard carries each artist summary',
  },
  {
    name: "top 50 artists by streams with each artist's monthlyListeners",
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name monthlyListeners } } }',
    cold: () => 1,
    why: 'monthlyListeners is part of the artist summary the leaderboard carries',
  },
  {
    name: "top 50 artists by streams with each artist's followers",
    query: '{ topArtistsByStreams(limit: 50) { rank artist { name followers } } }',
    cold: () => 1 + 50,
    why: 'followers is only in the full profile: 1 leaderboard + 50 profiles',
  },
  {
    name: 'recent milestones with artist names',
    query: '{ recentMilestones(first: 50) { nodes { threshold artist { name } song { title } } } }',
    cold: () => 1,
    why: 'a milestone carries the artist name and song title',
  },
  {
    name: "recent milestones with each artist's awards",
    query: '{ recentMilestones(first: 50) { nodes { threshold artist { name awards { name } } } } }',
    cold: () => 1 + distinctArtistsOfRecentMilestones(50),
    why: '1 page + one profile per distinct artist (the loader shares repeats)',
  },
  {
    name: 'a chart of 50 entries without song',
    query: '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position songTitle trend } } }',
    cold: () => 1,
    why: 'one chart call',
  },
  {
    name: 'a chart of 50 entries with song',
    query: '{ chart(name: "spotify_daily_ng", territory: "NG", limit: 50) { entries { position song { slug totalStreams } } } }',
    cold: () => 1 + distinctChartSongs('spotify_daily_ng', 'NG'),
    why: '1 chart + one search per distinct (title, artist) entry',
  },
];

describe('upstream calls of the reference queries', () => {
  it.each(REFERENCES)('$name: cold = minimum, warm = 0', async (reference) => {
    const variables = reference.variables?.();
    const before = gateway().upstreamCalls();
    const cold = await gateway().query(reference.query, variables);
    expect(cold.body.errors).toBeUndefined();
    const coldCalls = gateway().upstreamCalls() - before;
    expect(coldCalls, reference.why).toBe(reference.cold());
    expect(cold.body.extensions?.cost).toMatchObject({ upstreamCalls: coldCalls });

    const warm = await gateway().query(reference.query, variables);
    expect(gateway().upstreamCalls() - before - coldCalls).toBe(0);
    expect(warm.body.data).toEqual(cold.body.data);
    expect(warm.body.extensions?.cost).toMatchObject({ upstreamCalls: 0 });
  });

  it('two overlapping connection windows: items 80-129 take pages 1 and 2, then items 100-129 take none', async () => {
    const query = 'query ($after: String) { artists(first: 50, after: $after, isAfrobeats: true) { totalCount nodes { slug } } }';
    const before = gateway().upstreamCalls();
    const first = await gateway().query(query, { after: offsetToCursor(79) });
    expect(gateway().upstreamCalls() - before).toBe(2);
    const pages = stack.simulator.calls.slice(-2).map((c) => c.query.page).sort();
    expect(pages).toEqual(['1', '2']);

    const second = await gateway().query(query.replace('first: 50', 'first: 30'), { after: offsetToCursor(99) });
    expect(gateway().upstreamCalls() - before).toBe(2);
    const firstSlugs = (first.body.data as any).artists.nodes.map((n: { slug: string }) => n.slug);
    expect((second.body.data as any).artists.nodes.map((n: { slug: string }) => n.slug)).toEqual(firstSlugs.slice(20));
  });

  it('the same query twice: the second costs nothing and reports its cache hits', async () => {
    const query = '{ trendingArtists(limit: 7) { rank artist { name } } trendingSongs(limit: 3) { rank } }';
    await gateway().query(query);
    const before = gateway().upstreamCalls();
    const again = await gateway().query(query);
    expect(gateway().upstreamCalls()).toBe(before);
    expect(again.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 2, deduplicated: 0 });
  });

  it('every place in one query that needs the same record shares one call', async () => {
    const slug = data().allArtists()[2]!.slug;
    const before = gateway().upstreamCalls();
    const response = await gateway().query(
      `query ($slug: String!) { a: artist(slug: $slug) { followers } b: artist(slug: $slug) { awards { name } }
        top: topArtistsByStreams(limit: 5) { artist { slug followers } } }`,
      { slug },
    );
    expect(response.body.errors).toBeUndefined();
    const topSlugs = new Set(data().leaderboardStreams({ limit: 5 }).map((a) => a.slug));
    topSlugs.add(slug);
    expect(gateway().upstreamCalls() - before).toBe(1 + topSlugs.size);
  });
});
