/**
 * How real upstream bodies may differ from the assumed ones (upstream-api.md,
 * Part 2), endpoint by endpoint: the simulator's normal answer is rewritten
 * on its way out, and each row says which fields become null, which errors
 * (code and path) and list warnings appear, and that the siblings survive.
 * Each row runs on a fresh gateway (a cold cache) against one simulator.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { captureLog } from '../support/log-capture.js';
import { type GraphQLResponse, SERVER_KEY, startStack } from '../support/stack.js';

// Bodies are arbitrary JSON here: the rewrites reach into them freely.
// biome-ignore lint/suspicious/noExplicitAny: test rewrites of arbitrary JSON
type Json = any;

interface Variation {
  readonly name: string;
  /** Upstream path (prefix) whose answer is rewritten. */
  readonly path: string;
  /** The normal answer rewritten, or else replaced by an error status. */
  readonly rewrite?: (body: Json) => unknown;
  readonly status?: number;
  readonly query: string;
  /** `data` as the client must see it (toMatchObject). */
  readonly data: Json;
  /** Every error, as [code, path]; none when absent. */
  readonly errors?: readonly [string, readonly (string | number)[]][];
  /** Every list warning, as [list path, upstream index]. */
  readonly warnings?: readonly [readonly (string | number)[], number][];
  /** A line the operator's log must hold. */
  readonly logged?: RegExp;
}

let simulator: Simulator;
let artist: { slug: string; name: string };
let chartName: string;
let chartTerritory: string;

beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
  const top = simulator.data.allArtists()[0]!;
  artist = { slug: top.slug, name: top.name };
  const chart = simulator.data.charts()[0]!;
  chartName = chart.chartName;
  chartTerritory = chart.chartTerritory;
});
afterAll(() => simulator.close());

const mapItems = (fn: (item: Json, index: number) => Json) => (body: Json) => body.map(fn);
const without = (item: Json, ...keys: string[]) => {
  for (const key of keys) delete item[key];
  return item;
};
const atIndex = (index: number, fn: (item: Json) => Json) => (item: Json, i: number) =>
  i === index ? fn(item) : item;

async function run(
  variation: Variation,
  maxUpstreamCost = 100,
): Promise<{ response: GraphQLResponse; log: string }> {
  const log = captureLog();
  const stack = await startStack({
    sharedSimulator: simulator,
    gateway: { retries: 0, logger: log.logger, protection: { maxUpstreamCost } },
  });
  try {
    simulator.injectFault(
      variation.rewrite !== undefined
        ? { kind: 'rewrite', rewrite: variation.rewrite }
        : { kind: 'status', status: variation.status ?? 500 },
      { path: variation.path, times: 1 },
    );
    const response = await stack.query(variation.query, { slug: artist.slug });
    return { response, log: log.lines().join('') };
  } finally {
    simulator.clearFaults();
    await stack.close();
  }
}

const PROFILE =
  'query ($slug: String!) { artist(slug: $slug) { name country followers totalStreams monthlyListeners isAfrobeats imageUrl } }';
const WITH_HISTORY =
  'query ($slug: String!) { artist(slug: $slug) { name history { date dailyStreams } } }';

const profileVariations = (): Variation[] => [
  {
    name: 'extra fields are ignored',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, label: 'x', nested: { deep: [1, 2] } }),
    query: PROFILE,
    data: { artist: { name: artist.name } },
  },
  {
    name: 'missing optional fields are null, not invented',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => without(body, 'country', 'followers', 'imageUrl', 'isAfrobeats'),
    query: PROFILE,
    data: {
      artist: {
        name: artist.name,
        country: null,
        followers: null,
        imageUrl: null,
        isAfrobeats: null,
      },
    },
  },
  {
    name: 'numbers as numeric strings are read, and noted in the log',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, totalStreams: '12345678901', isAfrobeats: 'true' }),
    query: PROFILE,
    data: { artist: { name: artist.name, totalStreams: 12345678901, isAfrobeats: true } },
    logged:
      /"upstreamPath":"\/api\/v1\/artists\/[^"]+".*"field":"totalStreams","value":"\\"12345678901\\"".*numeric string/,
  },
  {
    name: 'snake_case names of known fields are read',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => {
      const { monthlyListeners, ...rest } = body;
      return { ...rest, monthly_listeners: monthlyListeners + 1 };
    },
    query: 'query ($slug: String!) { artist(slug: $slug) { name monthlyListeners } }',
    data: { artist: { name: artist.name, monthlyListeners: expect.any(Number) } },
    logged: /snake_case/,
  },
  {
    name: 'a count beyond 2^53 is an error at that field, not null and not rounded',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, totalStreams: 2 ** 60 }),
    query: PROFILE,
    data: { artist: { name: artist.name, totalStreams: null } },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['artist', 'totalStreams']]],
  },
  {
    name: 'a relative image URL is an error at that field',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, imageUrl: '/img/a.jpg' }),
    query: PROFILE,
    data: { artist: { name: artist.name, imageUrl: null } },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['artist', 'imageUrl']]],
  },
  {
    name: 'a null list of awards is null, not empty',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, awards: null }),
    query: 'query ($slug: String!) { artist(slug: $slug) { name awards { name } } }',
    data: { artist: { name: artist.name, awards: null } },
  },
  {
    name: 'an award without a name is left out and reported; an award without a result has won null',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({
      ...body,
      awards: [
        { category: 'x', result: 'won' },
        { name: 'Kept', year: '2020' },
      ],
    }),
    query: 'query ($slug: String!) { artist(slug: $slug) { name awards { name year won } } }',
    data: { artist: { name: artist.name, awards: [{ name: 'Kept', year: 2020, won: null }] } },
    warnings: [[['artist', 'awards'], 0]],
  },
  {
    name: 'a chart position without a readable position is left out, the others stay',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({
      ...body,
      charts: [
        { chartName: 'a', chartTerritory: 'NG', position: 'first' },
        { chartName: 'b', chartTerritory: 'NG', position: 2, chartWeek: '2026-11-13T00:00:00Z' },
      ],
    }),
    query:
      'query ($slug: String!) { artist(slug: $slug) { name chartPositions { position week chart { name } } } }',
    data: {
      artist: {
        name: artist.name,
        chartPositions: [{ position: 2, week: '2026-11-13', chart: { name: 'b' } }],
      },
    },
    warnings: [[['artist', 'chartPositions'], 0]],
  },
  {
    name: 'top songs that are not a list: an error at that field, the name stays',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => ({ ...body, topSongs: 'none' }),
    query: 'query ($slug: String!) { artist(slug: $slug) { name topSongs { slug } } }',
    data: { artist: { name: artist.name, topSongs: null } },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['artist', 'topSongs']]],
  },
  {
    name: 'a profile without a name cannot be read: the artist is an error',
    path: `/api/v1/artists/${artist.slug}`,
    rewrite: (body) => without(body, 'name'),
    query: PROFILE,
    data: { artist: null },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['artist']]],
  },
];

const historyVariations = (): Variation[] => {
  const path = `/api/v1/artists/${artist.slug}/history`;
  return [
    {
      name: 'a history wrapped in {data} is read',
      path,
      rewrite: (body) => ({ data: body }),
      query: WITH_HISTORY,
      data: {
        artist: {
          name: artist.name,
          history: expect.arrayContaining([expect.objectContaining({ date: expect.any(String) })]),
        },
      },
    },
    {
      name: 'timestamps for dates are read as their UTC day',
      path,
      rewrite: mapItems((s) => ({ ...s, date: `${s.date}T23:30:00-01:00` })),
      query: WITH_HISTORY,
      // 23:30 at UTC-1 is the next UTC day: the first snapshot moves one day on.
      data: { artist: { name: artist.name, history: expect.any(Array) } },
      logged: /timestamp where a YYYY-MM-DD date was expected/,
    },
    {
      name: 'an impossible date leaves out that snapshot only, reported as UPSTREAM_INVALID_RESPONSE',
      path,
      rewrite: mapItems(atIndex(3, (s) => ({ ...s, date: '2026-02-30' }))),
      query: WITH_HISTORY,
      data: { artist: { name: artist.name, history: expect.any(Array) } },
      warnings: [[['artist', 'history'], 3]],
    },
    {
      name: 'a 500 on the history nulls the history, not the artist',
      path,
      status: 500,
      query: WITH_HISTORY,
      data: { artist: { name: artist.name, history: null } },
      errors: [['UPSTREAM_ERROR', ['artist', 'history']]],
    },
    {
      name: 'a body that is no list nulls the history, not the artist',
      path,
      rewrite: () => ({ oops: true }),
      query: WITH_HISTORY,
      data: { artist: { name: artist.name, history: null } },
      errors: [['UPSTREAM_INVALID_RESPONSE', ['artist', 'history']]],
    },
    {
      name: 'a null body nulls the history, not the artist',
      path,
      rewrite: () => null,
      query: WITH_HISTORY,
      data: { artist: { name: artist.name, history: null } },
      errors: [['UPSTREAM_INVALID_RESPONSE', ['artist', 'history']]],
    },
    {
      name: 'duplicated and reversed snapshots come back once each, oldest first',
      path,
      rewrite: (body) => [...body, ...body].reverse(),
      query: WITH_HISTORY,
      data: { artist: { name: artist.name, history: expect.any(Array) } },
    },
    {
      name: 'counts as numeric strings are read',
      path,
      rewrite: mapItems((s) => ({ ...s, dailyStreams: String(s.dailyStreams) })),
      query: WITH_HISTORY,
      data: {
        artist: {
          name: artist.name,
          history: expect.arrayContaining([
            expect.objectContaining({ dailyStreams: expect.any(Number) }),
          ]),
        },
      },
    },
  ];
};

const RANKINGS = `{ trendingArtists(limit: 3) { rank momentumScore artist { slug } } topArtistsByStreams(limit: 2) { rank artist { slug } } }`;

const rankingVariations = (): Variation[] => [
  {
    name: 'a missing momentum score is null, not 0',
    path: '/api/v1/trending/artists',
    rewrite: mapItems((item) => without(item, 'momentumScore')),
    query: RANKINGS,
    data: {
      trendingArtists: [
        { rank: 1, momentumScore: null },
        { rank: 2, momentumScore: null },
        { rank: 3, momentumScore: null },
      ],
    },
  },
  {
    name: 'a momentum score as a string is read',
    path: '/api/v1/trending/artists',
    rewrite: mapItems((item) => ({ ...item, momentumScore: '87.5' })),
    query: RANKINGS,
    data: {
      trendingArtists: [{ momentumScore: 87.5 }, { momentumScore: 87.5 }, { momentumScore: 87.5 }],
    },
  },
  {
    name: 'a missing rank is the position in the ordered list',
    path: '/api/v1/trending/artists',
    rewrite: mapItems((item) => without(item, 'rank')),
    query: RANKINGS,
    data: { trendingArtists: [{ rank: 1 }, { rank: 2 }, { rank: 3 }] },
  },
  {
    name: 'an item without a slug is left out and reported; the others and the sibling stay',
    path: '/api/v1/trending/artists',
    rewrite: mapItems(atIndex(0, (item) => without(item, 'slug'))),
    query: RANKINGS,
    data: {
      trendingArtists: [{ rank: 2 }, { rank: 3 }],
      topArtistsByStreams: [{ rank: 1 }, { rank: 2 }],
    },
    warnings: [[['trendingArtists'], 0]],
  },
  {
    name: 'an unreadable list body takes only its own root field',
    path: '/api/v1/trending/artists',
    rewrite: () => ({ items: [] }),
    query: RANKINGS,
    data: { trendingArtists: null, topArtistsByStreams: [{ rank: 1 }, { rank: 2 }] },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['trendingArtists']]],
  },
  {
    name: 'snake_case leaderboard items are read',
    path: '/api/v1/leaderboard/streams',
    rewrite: mapItems(({ totalStreams, ...item }) => ({ ...item, total_streams: totalStreams })),
    query: '{ topArtistsByStreams(limit: 1) { artist { totalStreams } } }',
    data: { topArtistsByStreams: [{ artist: { totalStreams: expect.any(Number) } }] },
  },
];

const TIMELINE = `query ($slug: String!) { artist(slug: $slug) { name milestones { id threshold crossedAt } } }`;

const milestoneVariations = (): Variation[] => [
  {
    name: 'a timeline with only threshold and crossedAt (as documented) gets unique derived ids',
    path: `/api/v1/milestones/timeline/${artist.slug}`,
    rewrite: mapItems((m) => ({ threshold: m.threshold, crossedAt: m.crossedAt })),
    query: TIMELINE,
    data: { artist: { name: artist.name, milestones: expect.any(Array) } },
  },
  {
    name: 'a timeline milestone with an impossible day is left out, the others stay',
    path: `/api/v1/milestones/timeline/${artist.slug}`,
    rewrite: mapItems(atIndex(0, (m) => ({ ...m, crossedAt: '2025-13-01' }))),
    query: TIMELINE,
    data: { artist: { name: artist.name, milestones: expect.any(Array) } },
    warnings: [[['artist', 'milestones'], 0]],
  },
  {
    name: 'a timeline metric or isAfrobeats present but unreadable is an error at that field alone (contract v3)',
    path: `/api/v1/milestones/timeline/${artist.slug}`,
    rewrite: mapItems(
      atIndex(0, (m) => ({
        threshold: m.threshold,
        crossedAt: m.crossedAt,
        metric: { x: 1 },
        isAfrobeats: 'maybe',
      })),
    ),
    query: `query ($slug: String!) { artist(slug: $slug) { name milestones { metric platform isAfrobeats threshold } } }`,
    data: { artist: { name: artist.name, milestones: expect.any(Array) } },
    errors: [
      ['UPSTREAM_INVALID_RESPONSE', ['artist', 'milestones', 0, 'metric']],
      ['UPSTREAM_INVALID_RESPONSE', ['artist', 'milestones', 0, 'platform']],
      ['UPSTREAM_INVALID_RESPONSE', ['artist', 'milestones', 0, 'isAfrobeats']],
    ],
  },
  {
    name: 'a recent milestone without metric is still left out (recent milestones promise it)',
    path: '/api/v1/milestones/recent',
    rewrite: (body) => ({
      ...body,
      data: body.data.map(atIndex(0, (m: Json) => without(m, 'metric'))),
    }),
    query: '{ recentMilestones(first: 3) { edges { node { id metric platform isAfrobeats } } } }',
    data: {
      recentMilestones: {
        edges: [
          {
            node: {
              metric: expect.any(String),
              platform: expect.any(String),
              isAfrobeats: expect.any(Boolean),
            },
          },
          {
            node: {
              metric: expect.any(String),
              platform: expect.any(String),
              isAfrobeats: expect.any(Boolean),
            },
          },
        ],
      },
    },
    warnings: [[['recentMilestones'], 0]],
  },
  {
    name: 'a recent milestone without a documented field is left out; the page and its total stay',
    path: '/api/v1/milestones/recent',
    rewrite: (body) => ({
      ...body,
      data: body.data.map(atIndex(1, (m: Json) => without(m, 'isAfrobeats'))),
    }),
    query: '{ recentMilestones(first: 3) { totalCount edges { cursor node { id isAfrobeats } } } }',
    data: {
      recentMilestones: {
        totalCount: expect.any(Number),
        edges: [expect.anything(), expect.anything()],
      },
    },
    warnings: [[['recentMilestones'], 1]],
  },
  {
    name: 'a page without meta.total is an error at that root field only',
    path: '/api/v1/milestones/recent',
    rewrite: (body) => ({ data: body.data }),
    query: '{ recentMilestones(first: 1) { totalCount } charts { name } }',
    data: { recentMilestones: null, charts: expect.any(Array) },
    errors: [['UPSTREAM_INVALID_RESPONSE', ['recentMilestones']]],
  },
];

const chartVariations = (): Variation[] => {
  const path = `/api/v1/charts/${chartName}/${chartTerritory}`;
  const query = `{ chart(name: "${chartName}", territory: "${chartTerritory}") { totalEntries entries { position trend delta weeksOnChart previousPosition } } }`;
  return [
    {
      name: 'an entry without weeksOnChart is left out, not given 1',
      path,
      rewrite: (body) => ({
        ...body,
        data: body.data.map(atIndex(0, (e: Json) => without(e, 'weeksOnChart'))),
      }),
      query,
      data: {
        chart: { entries: expect.not.arrayContaining([expect.objectContaining({ position: 1 })]) },
      },
      warnings: [[['chart', 'entries'], 0]],
    },
    {
      name: 'an entry without delta is left out, not given 0',
      path,
      rewrite: (body) => ({
        ...body,
        data: body.data.map(atIndex(1, (e: Json) => without(e, 'delta'))),
      }),
      query,
      data: {
        chart: { entries: expect.not.arrayContaining([expect.objectContaining({ position: 2 })]) },
      },
      warnings: [[['chart', 'entries'], 1]],
    },
    {
      name: 'a lower-case trend is read',
      path,
      rewrite: (body) => ({
        ...body,
        data: body.data.map((e: Json) => ({ ...e, trend: String(e.trend).toLowerCase() })),
      }),
      query,
      data: {
        chart: {
          entries: expect.arrayContaining([
            expect.objectContaining({ trend: expect.stringMatching(/^[A-Z]+$/) }),
          ]),
        },
      },
    },
    {
      name: 'a chart without meta.total is an error at the chart, which promises totalEntries',
      path,
      rewrite: (body) => without(body, 'meta'),
      query,
      data: { chart: null },
      errors: [['UPSTREAM_INVALID_RESPONSE', ['chart', 'totalEntries']]],
    },
    {
      name: 'a NEW entry never has a previous position, whatever the body says',
      path,
      rewrite: (body) => ({
        ...body,
        data: body.data.map((e: Json) => ({ ...e, trend: 'NEW', prevRank: 7 })),
      }),
      query,
      data: {
        chart: {
          entries: expect.arrayContaining([
            expect.objectContaining({ trend: 'NEW', previousPosition: null }),
          ]),
        },
      },
    },
  ];
};

describe.each([
  ['artist profile', profileVariations],
  ['artist history', historyVariations],
  ['rankings', rankingVariations],
  ['milestones', milestoneVariations],
  ['chart', chartVariations],
])('%s bodies', (_, variations) => {
  it('every variation nulls exactly what depends on it', async () => {
    for (const variation of variations()) {
      const { response, log } = await run(variation);
      const context = `${variation.name}: ${JSON.stringify(response.body)}`;
      expect(response.status, context).toBe(200);
      expect(response.body.data, context).toMatchObject(variation.data);
      const errors = (response.body.errors ?? []).map((e) => [e.extensions?.code, e.path]);
      expect(errors, context).toEqual(variation.errors ?? []);
      const warnings = (
        (response.body.extensions?.warnings ?? []) as {
          path: unknown;
          index: number;
          code: string;
        }[]
      ).map((w) => [w.path, w.index]);
      expect(warnings, context).toEqual(variation.warnings ?? []);
      if (variation.logged !== undefined) expect(log, context).toMatch(variation.logged);
    }
  });
});

describe('details the table cannot show', () => {
  it('derived milestone ids never collide, whatever the upstream leaves out', async () => {
    for (const keep of [
      ['threshold', 'crossedAt'],
      ['threshold', 'crossedAt', 'metric', 'songTitle', 'songId', 'artistSlug'],
    ]) {
      const { response } = await run({
        name: 'ids',
        path: `/api/v1/milestones/timeline/${artist.slug}`,
        rewrite: mapItems((m) => Object.fromEntries(keep.map((key) => [key, m[key]]))),
        query: TIMELINE,
        data: {},
      });
      const milestones = (response.body.data!.artist as { milestones: { id: string }[] })
        .milestones;
      expect(milestones.length).toBeGreaterThan(1);
      expect(new Set(milestones.map((m) => m.id)).size).toBe(milestones.length);
      expect(milestones.every((m) => m.id.startsWith('derived:'))).toBe(true);
    }
  });

  it('a timeline of records with only threshold and crossedAt answers every milestone, metric, platform and isAfrobeats null, no error (contract v3)', async () => {
    const upstream = simulator.data.milestoneTimeline(artist.slug) ?? [];
    expect(upstream.length).toBeGreaterThan(1);
    const minimal: Variation = {
      name: 'minimal timeline',
      path: `/api/v1/milestones/timeline/${artist.slug}`,
      rewrite: mapItems((m) => ({ threshold: m.threshold, crossedAt: m.crossedAt })),
      query:
        'query ($slug: String!) { artist(slug: $slug) { name milestones { id metric platform isAfrobeats threshold crossedAt streamValue artist { slug } } } }',
      data: {},
    };
    type Answered = {
      id: string;
      metric: string | null;
      platform: string | null;
      isAfrobeats: boolean | null;
      threshold: number;
      crossedAt: string;
      streamValue: number | null;
      artist: { slug: string };
    };
    const answers: Answered[][] = [];
    for (let read = 0; read < 2; read++) {
      const { response } = await run(minimal);
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.extensions?.warnings ?? []).toEqual([]);
      const answered = response.body.data!.artist as {
        name: string;
        milestones: Answered[] | null;
      };
      expect(answered.name).toBe(artist.name);
      expect(answered.milestones).not.toBeNull();
      answers.push(answered.milestones!);
    }
    const [milestones, again] = answers as [Answered[], Answered[]];

    // Every record is answered, with what it has and nothing invented.
    expect(milestones).toHaveLength(upstream.length);
    for (const m of milestones) {
      expect(m).toMatchObject({
        metric: null,
        platform: null,
        isAfrobeats: null,
        streamValue: null,
        artist: { slug: artist.slug },
      });
    }
    const pairs = (list: readonly { threshold: number; crossedAt: string }[]) =>
      list.map((m) => `${m.crossedAt} ${m.threshold}`).sort();
    expect(pairs(milestones)).toEqual(pairs(upstream));
    // Oldest first, as documented.
    const days = milestones.map((m) => m.crossedAt);
    expect(days).toEqual([...days].sort());

    // Ids come from the artist, threshold and day alone, never collide, and are the same on every read.
    for (const m of milestones) {
      const content = `derived:${artist.slug}|||${m.threshold}|${m.crossedAt}`;
      expect(m.id === content || m.id.startsWith(`${content}#`), m.id).toBe(true);
    }
    expect(new Set(milestones.map((m) => m.id)).size).toBe(milestones.length);
    expect(again.map((m) => m.id)).toEqual(milestones.map((m) => m.id));
  });

  it('a song milestone without artistName still finds its song through the parent artist', async () => {
    const timeline = simulator.data.milestoneTimeline(artist.slug) ?? [];
    expect(timeline.some((m) => m.songTitle !== null)).toBe(true);
    const { response } = await run(
      {
        name: 'no artistName',
        path: `/api/v1/milestones/timeline/${artist.slug}`,
        rewrite: mapItems((m) => without(m, 'artistName', 'artistSlug')),
        query:
          'query ($slug: String!) { artist(slug: $slug) { milestones { song { slug title } } } }',
        data: {},
      },
      1_000,
    );
    expect(response.body.errors).toBeUndefined();
    const songs = (
      response.body.data!.artist as { milestones: { song: { slug: string } | null }[] }
    ).milestones;
    expect(songs.some((m) => m.song !== null && m.song.slug.length > 0)).toBe(true);
  });

  it('an unreadable value is an error at its field alone, alike run first, compiled and beside Yoga', async () => {
    const stack = await startStack({ sharedSimulator: simulator, gateway: { retries: 0 } });
    try {
      simulator.injectFault(
        {
          kind: 'rewrite',
          rewrite: mapItems((s, index) =>
            index === 2
              ? { ...s, dailyStreams: 'lots' }
              : index === 5
                ? { ...s, monthlyListeners: { x: 1 } }
                : s,
          ),
        },
        { path: `/api/v1/artists/${artist.slug}/history`, times: 1 },
      );
      simulator.injectFault(
        { kind: 'rewrite', rewrite: mapItems(atIndex(0, (m) => ({ ...m, isAfrobeats: 'maybe' }))) },
        { path: `/api/v1/milestones/timeline/${artist.slug}`, times: 1 },
      );
      const query = `query ($slug: String!) { artist(slug: $slug) {
        history { date totalStreams dailyStreams monthlyListeners }
        milestones { threshold crossedAt isAfrobeats artist { name isAfrobeats } } } }`;
      // Each body new (an undeclared variable): no answer is a stored one, so each is executed.
      const answers = [];
      for (let request = 0; request < 4; request += 1)
        answers.push((await stack.query(query, { slug: artist.slug, request })).body);
      const first = answers[0]!;
      expect(first.errors?.map((e) => [e.extensions?.code, e.path])).toEqual([
        ['UPSTREAM_INVALID_RESPONSE', ['artist', 'history', 2, 'dailyStreams']],
        ['UPSTREAM_INVALID_RESPONSE', ['artist', 'history', 5, 'monthlyListeners']],
        ['UPSTREAM_INVALID_RESPONSE', ['artist', 'milestones', 0, 'isAfrobeats']],
      ]);
      const { history, milestones } = first.data!.artist as {
        history: Record<string, unknown>[];
        milestones: Record<string, unknown>[];
      };
      expect(history[2]).toMatchObject({ dailyStreams: null, totalStreams: expect.any(Number) });
      expect(history[5]).toMatchObject({
        monthlyListeners: null,
        dailyStreams: expect.any(Number),
      });
      expect(milestones[0]).toMatchObject({ isAfrobeats: null, threshold: expect.any(Number) });
      for (const answer of answers.slice(1)) {
        expect(answer.data).toEqual(first.data);
        expect(answer.errors).toEqual(first.errors);
      }
    } finally {
      simulator.clearFaults();
      await stack.close();
    }
  });

  it('the history survives an impossible date in the order the client expects', async () => {
    const { response } = await run({
      name: 'impossible date',
      path: `/api/v1/artists/${artist.slug}/history`,
      rewrite: mapItems(atIndex(3, (s) => ({ ...s, date: '2026-02-30' }))),
      query: WITH_HISTORY,
      data: {},
    });
    const history = (response.body.data!.artist as { history: { date: string }[] }).history;
    const full = simulator.data.artistHistory(artist.slug) ?? [];
    expect(history).toHaveLength(full.length - 1);
    expect(history.map((s) => s.date)).toEqual([...history.map((s) => s.date)].sort());
    expect(history.map((s) => s.date)).not.toContain(full[3]!.date);
  });
});
