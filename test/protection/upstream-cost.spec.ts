/**
 * The upstream-cost estimate: exact worst-case figures, refusal above the
 * maximum with no upstream call, and the estimate in every response.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getNamedType, isListType, isNonNullType, isObjectType, parse } from 'graphql';
import { beforeAll, describe, expect, it } from 'vitest';
import { REFERENCE_QUERIES } from '../../bench/reference-queries.js';
import { schema } from '../../src/schema/index.js';
import { declaredFieldReads, estimateUpstreamCost } from '../../src/schema/upstream-cost.js';
import { useCostStacks } from '../support/cost-stacks.js';
import type { Stack } from '../support/stack.js';

const FIELD_COSTS = declaredFieldReads(schema);

const estimate = (query: string, variables: Record<string, unknown> = {}) =>
  estimateUpstreamCost(schema, parse(query), undefined, variables).upstreamCalls;

const EXAMPLES_DIR = 'examples/operations';
const examples = readdirSync(EXAMPLES_DIR)
  .filter((file) => file.endsWith('.graphql'))
  .map((file) => ({ file, query: readFileSync(`${EXAMPLES_DIR}/${file}`, 'utf8') }));

describe('estimate (worst-case upstream calls)', () => {
  it.each([
    ['{ apiUsage { used } } = 0', '{ apiUsage { used } }', {}, 0],
    [
      'leaderboard of 100 names = 1 list',
      '{ topArtistsByStreams(limit: 100) { artist { name } } }',
      {},
      1,
    ],
    [
      'leaderboard of 100 with followers = 1 + 100 profiles = 101',
      '{ topArtistsByStreams(limit: 100) { artist { followers } } }',
      {},
      101,
    ],
    [
      'leaderboard, default 20, with followers = 1 + 20 = 21',
      '{ topSongs { song { artist { followers } } } }',
      {},
      21,
    ],
    [
      'chart without song = 1',
      '{ chart(name: "a", territory: "UK") { entries { position } } }',
      {},
      1,
    ],
    [
      'chart of 200 (default) with song = 1 + 200 searches = 201',
      '{ chart(name: "a", territory: "UK") { entries { song { title } } } }',
      {},
      201,
    ],
    [
      'chart of 50 with song = 1 + 50 = 51',
      '{ chart(name: "a", territory: "UK", limit: 50) { entries { song { slug } } } }',
      {},
      51,
    ],
    [
      'chart of $n = 150 with song and its duration = 1 + 150 × (search + record) = 301',
      'query ($n: Int) { chart(name: "a", territory: "UK", limit: $n) { entries { song { durationMs } } } }',
      { n: 150 },
      301,
    ],
    [
      'chart limit 10^9 is cut to the maximum 200: 1 + 200 = 201',
      '{ chart(name: "a", territory: "UK", limit: 1000000000) { entries { song { slug } } } }',
      {},
      201,
    ],
    ['artists page, first 100 = 1 page', '{ artists(first: 100) { nodes { name } } }', {}, 1],
    [
      'artists page after a cursor = 2 pages',
      '{ artists(first: 100, after: "x") { nodes { name } } }',
      {},
      2,
    ],
    [
      'artists last 10 = page 1 for the total + 2 pages = 3',
      '{ artists(last: 10) { nodes { name } } }',
      {},
      3,
    ],
    [
      'artists 100 × (history + songs) = 1 + 100 × 2 = 201',
      '{ artists(first: 100) { edges { node { history { date } songs { totalCount } } } } }',
      {},
      201,
    ],
    [
      'artist + history + timeline, milestone titles free = 3',
      '{ artist(slug: "a") { history { date } milestones { song { title } } } }',
      {},
      3,
    ],
    [
      'artist timeline (assumed 100) × song slug search = 1 + 1 + 100 = 102',
      '{ artist(slug: "a") { milestones { song { slug } } } }',
      {},
      102,
    ],
    [
      'two aliases count twice: 2 × (1 + 10 top-song albums) = 22',
      '{ a: artist(slug: "a") { topSongs { album { title } } } b: artist(slug: "b") { topSongs { album { title } } } }',
      {},
      22,
    ],
    [
      'chart list once whatever the positions: 1 artist + 1 chart list = 2',
      '{ artist(slug: "a") { chartPositions { chart { latestWeek } } } }',
      {},
      2,
    ],
    [
      'fragments count like fields: 1 + 50 profiles = 51',
      'query { topArtistsByListeners(limit: 50) { ...R } } fragment R on RankedArtist { artist { awards { name } } }',
      {},
      51,
    ],
    [
      'node(id) on Artist with history = 1 + 1 = 2',
      '{ node(id: "x") { ... on Artist { history { date } } } }',
      {},
      2,
    ],
    ['nodes of 3 ids = 3', '{ nodes(ids: ["a", "b", "c"]) { id } }', {}, 3],
  ])('%s', (_, query, variables, expected) => {
    expect(estimate(query, variables)).toBe(expected);
  });

  it('every example operation is within the default maximum of 100', () => {
    expect(examples.length).toBeGreaterThan(0);
    for (const { file, query } of examples) expect(estimate(query), file).toBeLessThanOrEqual(100);
  });

  it('every reference query of the benchmarks is within the default maximum of 100', () => {
    for (const reference of REFERENCE_QUERIES) {
      expect(
        estimate(reference.query, reference.variables?.('burna-boy')),
        reference.name,
      ).toBeLessThanOrEqual(100);
    }
  });

  it('the artist page example: 1 profile + songs + history + timeline + 10 top-song albums = 14', () => {
    const artistPage = examples.find((example) => example.file === 'ArtistPage.graphql')!;
    expect(estimate(artistPage.query, { slug: 'x' })).toBe(14);
  });

  it('every list the table does not size has nothing costly beneath it', () => {
    const costly = new Set([
      'Artist',
      'Song',
      'Album',
      'ChartSummary',
      ...Object.keys(FIELD_COSTS),
    ]);
    const free = (typeName: string, seen = new Set<string>()): boolean => {
      if (seen.has(typeName)) return true;
      seen.add(typeName);
      if (costly.has(typeName)) return false;
      const type = schema.getType(typeName);
      if (!isObjectType(type)) return true;
      return Object.values(type.getFields()).every((field) =>
        free(getNamedType(field.type).name, seen),
      );
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
        if (!isListType(unwrapped) || field.name === 'edges' || field.name === 'nodes') continue;
        const sized =
          FIELD_COSTS[type.name]?.[field.name]?.size !== undefined ||
          (type.name === 'Chart' && field.name === 'entries');
        if (!sized)
          expect(free(getNamedType(field.type).name), `${type.name}.${field.name}`).toBe(true);
      }
    }
  });
});

describe('cost limit at the gateway', () => {
  const stacks = useCostStacks(10);
  let stack: Stack;
  let strict: Stack;
  beforeAll(() => {
    ({ stack, strict } = stacks);
  });

  it('refuses a chart of 200 entries each with its song (1 + 200 = 201 > 100) before any upstream call', async () => {
    const calls = stack.simulator.calls.length;
    const response = await stack.query(
      '{ chart(name: "official_afrobeats_chart", territory: "UK") { entries { song { title } } } }',
    );
    expect(response.status).toBe(400);
    expect(response.body.data).toBeUndefined();
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        extensions: { code: 'QUERY_TOO_COSTLY', estimated: 201, maximum: 100 },
      }),
    ]);
    expect(response.body.extensions?.cost).toMatchObject({ estimated: 201, upstreamCalls: 0 });
    expect(stack.simulator.calls.length).toBe(calls);
  });

  it('answers 200 with the same error under application/json (GraphQL over HTTP)', async () => {
    const response = await stack.query(
      '{ topArtistsByStreams(limit: 100) { artist { followers } } }',
      undefined,
      {
        accept: 'application/json',
      },
    );
    expect(response.status).toBe(200);
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COSTLY',
      estimated: 101,
      maximum: 100,
    });
  });

  it('takes list sizes from variables: chart of $limit = 120 with song = 121 > 100', async () => {
    const query =
      'query ($limit: Int) { chart(name: "official_afrobeats_chart", territory: "UK", limit: $limit) { entries { song { slug } } } }';
    // The same document with other variables first: its estimate is not the one reused below.
    const small = await stack.query(query, { limit: 3 });
    expect(small.body.extensions?.cost).toMatchObject({ estimated: 4 });
    const calls = stack.simulator.calls.length;
    const response = await stack.query(query, { limit: 120 });
    expect(response.body.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COSTLY',
      estimated: 121,
    });
    expect(stack.simulator.calls.length).toBe(calls);
    const again = await stack.query(query, { limit: 2 });
    expect(again.body.extensions?.cost).toMatchObject({ estimated: 3 });
  });

  it('with MAX_UPSTREAM_COST = 10: a chart of 9 with song (1 + 9 = 10) runs, of 10 (1 + 10 = 11) does not', async () => {
    const query = (limit: number) =>
      `{ chart(name: "official_afrobeats_chart", territory: "UK", limit: ${limit}) { entries { song { slug } } } }`;
    const allowed = await strict.query(query(9));
    expect(allowed.body.errors).toBeUndefined();
    const cost = allowed.body.extensions?.cost as { estimated: number; upstreamCalls: number };
    expect(cost.estimated).toBe(10);
    expect(cost.upstreamCalls).toBeGreaterThan(0);
    expect(cost.upstreamCalls).toBeLessThanOrEqual(10);

    const calls = stack.simulator.calls.length;
    const refused = await strict.query(query(10));
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COSTLY',
      estimated: 11,
      maximum: 10,
    });
    expect(stack.simulator.calls.length).toBe(calls);
  });

  it('refuses a subscription whose every event could cost more than the maximum, before it starts', async () => {
    // 1 + 100 songs' featured artists... as a query it is refused: each event would cost as much.
    const selection =
      'milestoneCrossed { threshold artist { songs(first: 100) { nodes { featuredArtists { followers } } } } }';
    const asQuery = await stack.query(
      `{ recentMilestones(first: 1) { nodes { artist { songs(first: 100) { nodes { featuredArtists { followers } } } } } } }`,
    );
    expect(asQuery.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_COSTLY');
    const calls = stack.simulator.calls.length;
    const response = await fetch(
      `${stack.url}/graphql?${new URLSearchParams({ query: `subscription { ${selection} }` })}`,
      { headers: { accept: 'text/event-stream' } },
    );
    // The stream says it once and ends: nothing stays subscribed.
    const text = await response.text();
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as { errors?: { extensions?: object }[] })
      .find((event) => event.errors !== undefined);
    expect(data?.errors?.[0]?.extensions).toMatchObject({ code: 'QUERY_TOO_COSTLY', maximum: 100 });
    expect(stack.simulator.calls.length).toBe(calls);
  });

  // Subscriptions answer over SSE: test/live runs them.
  const queries = examples.filter(({ query }) => !/^subscription /m.test(query));
  it.each(queries)(
    'example $file runs, reporting its estimate next to the actual calls',
    async ({ query }) => {
      const slug = stack.simulator.data.allArtists()[0]!.slug;
      const response = await stack.query(query, { slug });
      expect(response.body.errors).toBeUndefined();
      const cost = response.body.extensions?.cost as { estimated: number; upstreamCalls: number };
      expect(cost.estimated).toBe(estimate(query, { slug }));
      expect(cost.upstreamCalls).toBeLessThanOrEqual(cost.estimated);
    },
  );
});
