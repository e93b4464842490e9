/**
 * The five wrong answers of issue 8, each as the client saw it. The other
 * three (derived milestone ids, a milestone without artistName, an
 * impossible date) are rows of body-variations.spec.ts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { offsetToCursor } from '../../src/schema/connections.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

it('nodes(ids:) with one unknown id nulls that item only, with its error at its index', async () => {
  const [first, second] = stack.simulator.data.allArtists();
  const id = (slug: string) => Buffer.from(`Artist:${slug}`).toString('base64');
  const response = await stack.query(
    'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Artist { slug } } }',
    { ids: [id(first!.slug), id('no-such-artist'), id(second!.slug)] },
  );
  expect(response.body.data).toEqual({
    nodes: [{ slug: first!.slug }, null, { slug: second!.slug }],
  });
  expect(response.body.errors).toHaveLength(1);
  expect(response.body.errors?.[0]).toMatchObject({
    path: ['nodes', 1],
    extensions: { code: 'NOT_FOUND' },
  });
});

it('nodes(ids:) with one id of another type refuses that item only', async () => {
  const [first] = stack.simulator.data.allArtists();
  const response = await stack.query(
    'query ($ids: [ID!]!) { nodes(ids: $ids) { ... on Artist { slug } } }',
    {
      ids: [
        Buffer.from(`Milestone:1`).toString('base64'),
        Buffer.from(`Artist:${first!.slug}`).toString('base64'),
      ],
    },
  );
  expect(response.body.data).toEqual({ nodes: [null, { slug: first!.slug }] });
  expect(response.body.errors?.[0]).toMatchObject({
    path: ['nodes', 0],
    extensions: { code: 'BAD_USER_INPUT' },
  });
});

it('artists(before:) with neither first nor last answers the page just before the cursor', async () => {
  const all = stack.simulator.data.allArtists();
  const response = await stack.query(
    'query ($before: String!) { artists(before: $before) { nodes { slug } pageInfo { hasPreviousPage hasNextPage } } }',
    {
      before: offsetToCursor(30),
    },
  );
  const artists = response.body.data!.artists as {
    nodes: { slug: string }[];
    pageInfo: Record<string, boolean>;
  };
  expect(artists.nodes.map((a) => a.slug)).toEqual(all.slice(10, 30).map((a) => a.slug));
  expect(artists.pageInfo).toEqual({ hasPreviousPage: true, hasNextPage: true });
});

it('a chart entry naming a song missing from the catalogue has song null, without an error', async () => {
  const chart = stack.simulator.data.charts()[0]!;
  stack.simulator.injectFault(
    {
      kind: 'rewrite',
      rewrite: (body) => {
        const chartBody = body as { data: { songTitle: string }[] };
        chartBody.data[0]!.songTitle = 'A Song Nobody Catalogued';
        return chartBody;
      },
    },
    { path: `/api/v1/charts/${chart.chartName}/${chart.chartTerritory}`, times: 1 },
  );
  const response = await stack.query(
    `{ chart(name: "${chart.chartName}", territory: "${chart.chartTerritory}", limit: 2) { entries { songTitle song { slug } } } }`,
  );
  const entries = (
    response.body.data!.chart as {
      entries: { songTitle: string; song: { slug: string } | null }[];
    }
  ).entries;
  expect(entries[0]).toEqual({ songTitle: 'A Song Nobody Catalogued', song: null });
  expect(entries[1]?.song?.slug).toEqual(expect.any(String));
  expect(response.body.errors).toBeUndefined();
});
