/**
 * Where the upstream description is silent, the gateway's assumption is a
 * setting, the request says it explicitly, and a contradiction is logged
 * once (README, "Upstream assumptions").
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { captureLog } from '../support/log-capture.js';
import { SERVER_KEY, type Stack, startStack } from '../support/stack.js';

let simulator: Simulator;
beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
});
afterAll(() => simulator.close());

async function withGateway(
  assumptions: { songsOfArtistLimit: number; rankingLimit: number },
  use: (stack: Stack, log: () => string[]) => Promise<void>,
): Promise<void> {
  const log = captureLog();
  const stack = await startStack({
    sharedSimulator: simulator,
    gateway: { retries: 0, assumptions, logger: log.logger },
  });
  try {
    await use(stack, log.lines);
  } finally {
    simulator.clearFaults();
    await stack.close();
  }
}

it('the songs-of-artist limit is sent explicitly, and an answer as long as it is reported as perhaps cut short', async () => {
  const artist = simulator.data.allArtists()[0]!;
  const allSongs = simulator.data.songsOfArtist(artist.slug)!.length;
  expect(allSongs).toBeGreaterThan(3);
  await withGateway({ songsOfArtistLimit: 3, rankingLimit: 100 }, async (stack, log) => {
    simulator.resetCalls();
    const response = await stack.query(
      'query ($slug: String!) { artist(slug: $slug) { songs { totalCount } } }',
      { slug: artist.slug },
    );
    expect(response.body.data).toEqual({ artist: { songs: { totalCount: 3 } } });
    expect(simulator.calls.find((call) => call.rawPath.endsWith('/songs'))?.query).toMatchObject({
      limit: '3',
    });
    expect(log().join('')).toMatch(/may be cut short \(UPSTREAM_SONGS_OF_ARTIST_LIMIT\)/);
  });
});

it('a ranking limit the upstream refuses is logged once as a contradicted assumption', async () => {
  await withGateway({ songsOfArtistLimit: 100, rankingLimit: 100 }, async (stack, log) => {
    simulator.injectFault(
      {
        kind: 'status',
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'limit must not exceed 50' },
      },
      { path: '/api/v1/trending/songs' },
    );
    for (let i = 0; i < 2; i++) {
      const response = await stack.query('{ trendingSongs { rank } topSongs(limit: 1) { rank } }');
      expect(response.body.data).toMatchObject({ trendingSongs: null, topSongs: [{ rank: 1 }] });
      expect(response.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    }
    const warnings = log().filter((line) => line.includes('contradicted an assumption'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/UPSTREAM_RANKING_LIMIT/);
  });
});

it('an artists browse without letter that the upstream refuses is logged as the letter assumption', async () => {
  await withGateway({ songsOfArtistLimit: 100, rankingLimit: 100 }, async (stack, log) => {
    simulator.injectFault(
      {
        kind: 'status',
        status: 400,
        body: { statusCode: 400, error: 'Bad Request', message: 'letter is required' },
      },
      { path: '/api/v1/artists', times: 1 },
    );
    const response = await stack.query('{ artists(first: 1) { totalCount } }');
    expect(response.body.data).toEqual({ artists: null });
    expect(log().join('')).toMatch(/without `letter`/);
  });
});
