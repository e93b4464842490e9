/**
 * The example operations against a rough upstream (the simulator's
 * `roughness`: records missing optional fields, chart entries naming songs
 * that are not in the catalogue, repeated song titles, milestone ids that are
 * not time-ordered): every answer is whole, absent values are null rather
 * than invented, and nothing is reported as an error.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    simulator: { roughness: true },
    gateway: { protection: { maxUpstreamCost: 1_000 } },
  });
});
afterAll(() => stack.close());

const operation = (name: string) =>
  readFileSync(new URL(`../../examples/operations/${name}.graphql`, import.meta.url), 'utf8');

function whole(response: GraphQLResponse): Record<string, unknown> {
  expect(response.status).toBe(200);
  expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
  expect(response.body.extensions?.warnings).toBeUndefined();
  return response.body.data as Record<string, unknown>;
}

it('artist pages of artists with gaps are whole, with nulls where the upstream said nothing', async () => {
  const artists = stack.simulator.data.allArtists();
  const gaps = artists
    .filter((a) => a.country === undefined || a.imageUrl === undefined)
    .slice(0, 5);
  expect(gaps.length).toBeGreaterThan(0);
  for (const artist of gaps) {
    const data = whole(await stack.query(operation('ArtistPage'), { slug: artist.slug }));
    const page = data.artist as Record<string, unknown>;
    expect(page.name).toBe(artist.name);
    if (artist.country === undefined) expect(page.country).toBeNull();
    if (artist.imageUrl === undefined) expect(page.imageUrl).toBeNull();
  }
});

it('chart entries naming songs the catalogue lacks have song null; the rest resolve', async () => {
  const chart = stack.simulator.data.charts()[0]!;
  const data = whole(
    await stack.query(
      `{ chart(name: "${chart.chartName}", territory: "${chart.chartTerritory}") { entries { songTitle song { slug } } } }`,
    ),
  );
  const entries = (data.chart as { entries: { song: { slug: string } | null }[] }).entries;
  expect(entries.some((entry) => entry.song === null)).toBe(true);
  expect(entries.some((entry) => entry.song !== null)).toBe(true);
});

it('leaderboards, milestones and browsing stay whole; momentum scores are null where missing, never 0', async () => {
  const leaderboards = whole(await stack.query(operation('Leaderboards')));
  const trending = JSON.stringify(leaderboards);
  expect(trending).not.toMatch(/"momentumScore":0[,}]/);
  whole(await stack.query(operation('RecentMilestones')));
  whole(await stack.query(operation('BrowseArtists')));
  const ids = (await stack.query('{ recentMilestones(first: 50) { nodes { id } } }')).body.data as {
    recentMilestones: { nodes: { id: string }[] };
  };
  const seen = ids.recentMilestones.nodes.map((m) => m.id);
  expect(new Set(seen).size).toBe(seen.length);
});

it('a milestone of a song whose title the artist used twice finds a song of that title', async () => {
  const artists = stack.simulator.data.allArtists();
  for (const artist of artists.slice(0, 60)) {
    const songs = stack.simulator.data.songsOfArtist(artist.slug) ?? [];
    const titles = songs.map((s) => s.title);
    const repeated = titles.find((title, i) => titles.indexOf(title) !== i);
    if (repeated === undefined) continue;
    const data = whole(
      await stack.query(
        'query ($t: String!, $a: String!) { searchSongs(title: $t, artistName: $a) { slug title } }',
        {
          t: repeated,
          a: artist.name,
        },
      ),
    );
    const found = data.searchSongs as { slug: string; title: string }[];
    expect(found.filter((s) => s.title === repeated).length).toBeGreaterThanOrEqual(2);
    return;
  }
  throw new Error('no artist with a repeated title among the first 60');
});
