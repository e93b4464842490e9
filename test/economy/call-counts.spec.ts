/**
 * The reference queries and the exact number of upstream calls each must make,
 * cold (empty cache) and warm (same query again), counted at the simulator.
 * Each expected figure is the minimum by hand: one call per distinct upstream
 * resource the selected fields cannot do without.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REFERENCE_QUERIES } from '../../bench/reference-queries.js';
import { offsetToCursor } from '../../src/schema/connections.js';
import { askTwice } from '../support/admission.js';
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

/** Hand-computed minimum upstream calls of each reference query with a cold cache, and the reasoning. */
const MINIMUM: Record<string, { readonly cold: () => number; readonly why: string }> = {
  'artist page: profile, awards, chart positions, top songs, songs, history, milestones': {
    cold: () => 4,
    why: 'profile + songs of artist + history + timeline',
  },
  'top 50 artists by streams, names only': {
    cold: () => 1,
    why: 'the leaderboard carries each artist summary',
  },
  "top 50 artists by streams with each artist's monthlyListeners": {
    cold: () => 1,
    why: 'monthlyListeners is part of the artist summary the leaderboard carries',
  },
  "top 50 artists by streams with each artist's followers": {
    cold: () => 1 + 50,
    why: 'followers is only in the full profile: 1 leaderboard + 50 profiles',
  },
  "top 20 songs with each song's artist name": {
    cold: () => 1,
    why: "a song summary carries its artist's slug and name",
  },
  'recent milestones with artist names': {
    cold: () => 1,
    why: 'a milestone carries the artist name and song title',
  },
  "recent milestones with each artist's awards": {
    cold: () => 1 + distinctArtistsOfRecentMilestones(50),
    why: '1 page + one profile per distinct artist (the loader shares repeats)',
  },
  'a chart of 50 entries without song': { cold: () => 1, why: 'one chart call' },
  'a chart of 50 entries with song': {
    cold: () => 1 + distinctChartSongs('spotify_daily_ng', 'NG'),
    why: '1 chart + one search per distinct (title, artist) entry',
  },
};

const distinctArtistsOfRecentMilestones = (count: number) =>
  new Set(
    data()
      .recentMilestones({ page: 1, limit: 100 })
      .data.slice(0, count)
      .map((m) => m.artistSlug),
  ).size;

const distinctChartSongs = (name: string, territory: string) =>
  new Set(
    data()
      .chart(name, territory)!
      .data.map((e) => `${e.songTitle}\u0000${e.artistName}`),
  ).size;

describe('upstream calls of the reference queries', () => {
  it.each(REFERENCE_QUERIES)('$name: cold = minimum, warm = 0', async (reference) => {
    const minimum = MINIMUM[reference.name]!;
    const variables = reference.variables?.(data().allArtists()[0]!.slug);
    const before = gateway().upstreamCalls();
    const cold = await gateway().query(reference.query, variables);
    expect(cold.body.errors).toBeUndefined();
    const coldCalls = gateway().upstreamCalls() - before;
    expect(coldCalls, minimum.why).toBe(minimum.cold());
    expect(cold.body.extensions?.cost).toMatchObject({ upstreamCalls: coldCalls });

    const warm = await gateway().query(reference.query, variables);
    expect(gateway().upstreamCalls() - before - coldCalls).toBe(0);
    expect(warm.body.data).toEqual(cold.body.data);
    expect(warm.body.extensions?.cost).toMatchObject({ upstreamCalls: 0 });
  });

  it('two overlapping connection windows: items 80-129 take pages 1 and 2, then items 100-129 take none', async () => {
    const query =
      'query ($after: String) { artists(first: 50, after: $after, isAfrobeats: true) { totalCount nodes { slug } } }';
    const before = gateway().upstreamCalls();
    const first = await gateway().query(query, { after: offsetToCursor(79) });
    expect(gateway().upstreamCalls() - before).toBe(2);
    const pages = stack.simulator.calls
      .slice(-2)
      .map((c) => c.query.page)
      .sort();
    expect(pages).toEqual(['1', '2']);

    const second = await gateway().query(query.replace('first: 50', 'first: 30'), {
      after: offsetToCursor(99),
    });
    expect(gateway().upstreamCalls() - before).toBe(2);
    const firstSlugs = (
      first.body.data as { artists: { nodes: { slug: string }[] } }
    ).artists.nodes.map((n: { slug: string }) => n.slug);
    expect(
      (second.body.data as { artists: { nodes: { slug: string }[] } }).artists.nodes.map(
        (n: { slug: string }) => n.slug,
      ),
    ).toEqual(firstSlugs.slice(20));
  });

  it('the same records again: the second query costs nothing and reports its cache hits', async () => {
    const query =
      '{ trendingArtists(limit: 7) { rank artist { name } } trendingSongs(limit: 3) { rank } }';
    // Asked twice, so that the response cache stores its answer.
    await askTwice(() => gateway().query(query));
    const before = gateway().upstreamCalls();
    // Another document reading the same records: the upstream cache answers, not the response cache.
    const again = await gateway().query(`query Again ${query}`);
    expect(gateway().upstreamCalls()).toBe(before);
    expect(again.body.extensions?.cost).toMatchObject({
      upstreamCalls: 0,
      cacheHits: 2,
      deduplicated: 0,
    });
    // The same document again: the response cache answers.
    expect((await gateway().query(query)).body.extensions?.cost).toMatchObject({
      upstreamCalls: 0,
      responseCache: 'hit',
    });
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
    const topSlugs = new Set(
      data()
        .leaderboardStreams({ limit: 5 })
        .map((a) => a.slug),
    );
    topSlugs.add(slug);
    expect(gateway().upstreamCalls() - before).toBe(1 + topSlugs.size);
  });
});
