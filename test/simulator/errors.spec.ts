import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type { ErrorBody } from '../../src/simulator/types.js';
import { get, rawGet, start } from '../support/simulator.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await start({ artists: 50 });
});
afterAll(async () => {
  await sim.close();
});

async function expectError(path: string, status: number, message: string): Promise<void> {
  const reply = await get<ErrorBody>(sim, path);
  expect(reply.contentType).toMatch(/^application\/json/);
  expect({ status: reply.status, body: reply.body }).toEqual({
    status,
    body: { statusCode: status, error: status === 400 ? 'Bad Request' : 'Not Found', message },
  });
}

describe('400 on invalid parameters', () => {
  it.each([
    ['/api/v1/artists?limit=101', 'limit must not exceed 100'],
    ['/api/v1/artists?page=0', 'page must not be less than 1'],
    ['/api/v1/artists?limit=0', 'limit must not be less than 1'],
    ['/api/v1/artists?page=abc', 'page must be an integer number'],
    ['/api/v1/artists?limit=2.5', 'limit must be an integer number'],
    ['/api/v1/artists?isAfrobeats=yes', 'isAfrobeats must be a boolean value'],
    [
      '/api/v1/artists?sortBy=age',
      'sortBy must be one of the following values: name, totalStreams, monthlyListeners',
    ],
    [
      '/api/v1/albums?albumType=mixtape',
      'albumType must be one of the following values: album, single, ep',
    ],
    [
      '/api/v1/albums?sortBy=name',
      'sortBy must be one of the following values: totalStreams, releaseDate, dailyStreams',
    ],
    ['/api/v1/leaderboard/streams?limit=101', 'limit must not exceed 100'],
    ['/api/v1/leaderboard/songs?limit=500', 'limit must not exceed 100'],
    ['/api/v1/trending/artists?limit=101', 'limit must not exceed 100'],
    ['/api/v1/milestones/recent?page=-1', 'page must not be less than 1'],
    ['/api/v1/charts/itunes_daily_ng/NG?limit=201', 'limit must not exceed 200'],
    ['/api/v1/songs/search?artistName=x', 'title should not be empty'],
    ['/api/v1/songs/search?title=x', 'artistName should not be empty'],
    [
      '/api/v1/milestones/artists/3b',
      'Unknown tier "3b". Expected one of: 100m, 500m, 1b, 2b, 5b, 10b, 15b, 20b',
    ],
    [
      '/api/v1/milestones/songs/20b',
      'Unknown tier "20b". Expected one of: 50m, 100m, 500m, 1b, 2b',
    ],
    ['/api/v1/milestones/facts/nobody/streams/abc', 'threshold must be a positive integer'],
    ['/api/v1/milestones/facts/nobody/listeners/0', 'threshold must be a positive integer'],
    ['/api/v1/milestones/facts/nobody/songs/x/streams/1.5', 'threshold must be a positive integer'],
  ])('%s', async (path, message) => {
    await expectError(path, 400, message);
  });
});

describe('404 with the resource and slug named', () => {
  it.each([
    ['/api/v1/artists/no-such-artist', 'Artist "no-such-artist" not found'],
    ['/api/v1/artists/no-such-artist/history', 'Artist "no-such-artist" not found'],
    ['/api/v1/songs/no-such-song', 'Song "no-such-song" not found'],
    ['/api/v1/songs/no-such-song/history', 'Song "no-such-song" not found'],
    ['/api/v1/songs/no-such-artist/songs', 'Artist "no-such-artist" not found'],
    ['/api/v1/albums/no-such-album', 'Album "no-such-album" not found'],
    ['/api/v1/milestones/timeline/no-such-artist', 'Artist "no-such-artist" not found'],
    ['/api/v1/milestones/facts/no-such-artist/streams/100', 'Artist "no-such-artist" not found'],
    ['/api/v1/milestones/facts/no-such-artist/listeners/100', 'Artist "no-such-artist" not found'],
    ['/api/v1/charts/official_afrobeats_chart/NG', 'Chart "official_afrobeats_chart/NG" not found'],
    ['/api/v1/charts/billboard/US', 'Chart "billboard/US" not found'],
    ['/api/v1/nothing-here', 'Cannot GET /api/v1/nothing-here'],
    ['/api/v1/songs', 'Cannot GET /api/v1/songs'],
    ['/api/v2/artists', 'Cannot GET /api/v2/artists'],
    ['/', 'Cannot GET /'],
  ])('%s', async (path, message) => {
    await expectError(path, 404, message);
  });

  it('a song fact for a song of another artist is a song 404', async () => {
    const [a, b] = sim.data.allArtists();
    const songOfB = sim.data.songsOfArtist(b?.slug ?? '')?.[0]?.slug ?? '';
    await expectError(
      `/api/v1/milestones/facts/${a?.slug}/songs/${songOfB}/streams/100`,
      404,
      `Song "${songOfB}" not found`,
    );
    await expectError(
      `/api/v1/milestones/facts/nobody/songs/${songOfB}/streams/100`,
      404,
      'Artist "nobody" not found',
    );
  });
});

describe('path segments are decoded one by one', () => {
  it('an encoded slash stays inside one slug', async () => {
    const artist = sim.data.allArtists()[0]?.slug ?? '';
    // Decoded as a whole this would be /artists/<slug>/history; it must stay one unknown slug.
    await expectError(
      `/api/v1/artists/${artist}%2Fhistory`,
      404,
      `Artist "${artist}/history" not found`,
    );
    await expectError('/api/v1/artists/a%2Fb', 404, 'Artist "a/b" not found');
    expect(sim.calls.at(-1)?.segments).toEqual(['api', 'v1', 'artists', 'a/b']);
  });

  it('dot segments are slugs, not path changes', async () => {
    const notFound = (message: string) => ({
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message },
    });
    expect(await rawGet(sim, '/api/v1/artists/%2e%2e')).toEqual(notFound('Artist ".." not found'));
    expect(await rawGet(sim, '/api/v1/songs/%2E%2E/history')).toEqual(
      notFound('Song ".." not found'),
    );
    expect(await rawGet(sim, '/api/v1/charts/%2e%2e/%2e%2e')).toEqual(
      notFound('Chart "../.." not found'),
    );
    expect(await rawGet(sim, '/api/v1/charts/x/%2e%2e%2f%2e%2e')).toEqual(
      notFound('Chart "x/../.." not found'),
    );
  });

  it('an encoded search segment is still the search endpoint only when it decodes to "search"', async () => {
    const reply = await get(sim, '/api/v1/songs/searc%68?title=a&artistName=a');
    expect(reply.status).toBe(200);
    await expectError('/api/v1/songs/search%3Fx', 404, 'Song "search?x" not found');
  });

  it('a malformed escape is a 400', async () => {
    await expectError('/api/v1/artists/%zz', 400, "Failed to decode param '%zz'");
  });

  it('a non-GET method is a 404', async () => {
    const response = await fetch(`${sim.url}/api/v1/charts`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-key' },
    });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: 'Cannot POST /api/v1/charts',
    });
  });
});
