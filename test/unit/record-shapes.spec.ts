/**
 * Records of one kind share one hidden class: read from the simulator's bodies, the artists,
 * songs, albums and milestones the readers make are objects V8 lays out alike, so that the
 * resolvers reading them keep their inline caches. An object made by spreading a record and
 * adding a field (`{ ...draft, idDerived }`) got a class of its own, every record a new one.
 */
import { setFlagsFromString } from 'node:v8';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type { UpstreamRequest } from '../../src/upstream/endpoints.js';
import { endpoints } from '../../src/upstream/endpoints.js';
import { ReadNotes } from '../../src/upstream/reading.js';
import { get, start } from '../support/simulator.js';

// V8's own tests of a class, compiled once the flag that allows them is on.
setFlagsFromString('--allow-natives-syntax');
const haveSameClass = new Function('a', 'b', 'return %HaveSameMap(a, b)') as (
  a: object,
  b: object,
) => boolean;
const migrate = new Function('a', '%TryMigrateInstance(a)') as (a: object) => void;
setFlagsFromString('--no-allow-natives-syntax');

/**
 * How many hidden classes `records` are laid out in. A record read before a later one widened
 * a field's representation (an integer, then a fraction) still holds the class V8 replaced
 * until it is next touched: it is moved to the new one first, as any read of it would.
 */
function classesOf(records: readonly object[]): number {
  for (const record of records) migrate(record);
  const seen: object[] = [];
  for (const record of records)
    if (!seen.some((other) => haveSameClass(other, record))) seen.push(record);
  return seen.length;
}

let simulator: Simulator;

async function read<T>(request: UpstreamRequest<T>): Promise<T> {
  const reply = await get(simulator, request.key);
  expect(reply.status).toBe(200);
  return request.read(reply.body, new ReadNotes());
}

let slugs: string[];

beforeAll(async () => {
  simulator = await start();
  const board = await get<{ slug: string }[]>(simulator, '/api/v1/leaderboard/streams?limit=20');
  slugs = board.body.map((artist) => artist.slug);
});

afterAll(async () => {
  await simulator.close();
});

describe('records read from the upstream', () => {
  it('milestones of many artists share a class', async () => {
    const milestones = (
      await Promise.all(slugs.map((slug) => read(endpoints.timeline(slug))))
    ).flatMap((timeline) => timeline.items);
    expect(milestones.length).toBeGreaterThan(50);
    expect(classesOf(milestones)).toBe(1);
  });

  it('a page of recent milestones shares a class', async () => {
    const page = await read(endpoints.recentMilestonesPage(1, undefined));
    expect(page.items.length).toBeGreaterThan(10);
    expect(classesOf(page.items)).toBe(1);
  });

  it('artist profiles, full songs and full albums each share a class', async () => {
    const artists = await Promise.all(slugs.map((slug) => read(endpoints.artist(slug))));
    expect(classesOf(artists)).toBe(1);

    const songSlugs = artists.flatMap((artist) => artist.topSongs?.items.slice(0, 2) ?? []);
    const songs = await Promise.all(songSlugs.map((song) => read(endpoints.song(song.slug))));
    expect(songs.length).toBeGreaterThan(10);
    expect(classesOf(songs)).toBe(1);

    const albumPage = await read(endpoints.albumsPage(1, {}));
    const albums = await Promise.all(
      albumPage.items.slice(0, 20).map((album) => read(endpoints.album(album.slug))),
    );
    expect(albums.length).toBeGreaterThan(10);
    expect(classesOf(albums)).toBe(1);
  });
});
