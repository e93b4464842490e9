/**
 * Reads asked for in one tick start together (one DataLoader batch), but
 * each settles on its own: a field whose read is in goes on at once, and the
 * reads its children need leave without waiting for the slowest read of the
 * batch. A nested page is then as many round trips as its deepest branch,
 * not its slowest read plus the branches after it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

let stack: Stack;
beforeAll(async () => {
  // No retry: a held read ends only when the test lets it go, or when the client gives up on it.
  stack = await startStack({ gateway: { retries: 0 } });
});
afterAll(() => stack.close());

const LEADERBOARD = '/api/v1/leaderboard/streams';
const PAGE = `{
  topArtistsByStreams(limit: 2) { rank artist { slug } }
  chart(name: "spotify_daily_ng", territory: "NG", limit: 3) { entries { position song { title } } }
}`;

it('a failed read fails its own fields only; the rest of its batch answers', async () => {
  const artist = stack.simulator.data.allArtists()[3]!;
  stack.simulator.injectFault({ kind: 'status', status: 500 }, { path: LEADERBOARD, times: 10 });
  stack.simulator.resetCalls();
  const response = await stack.query(
    'query ($slug: String!) { topArtistsByStreams(limit: 2) { rank } artist(slug: $slug) { name } }',
    { slug: artist.slug },
  );
  stack.simulator.clearFaults();
  expect(response.body.data).toEqual({ topArtistsByStreams: null, artist: { name: artist.name } });
  expect(response.body.errors?.map((error) => error.path)).toEqual([['topArtistsByStreams']]);
});

it("a read held upstream does not hold back the reads its batch's other fields need next", async () => {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: LEADERBOARD });
  stack.simulator.resetCalls();
  const answer = stack.query(PAGE);

  // The leaderboard and the chart leave together; the chart's songs need only the chart, and leave
  // while the leaderboard is held. Were they to wait for it, they would leave only once its read had
  // failed (the client's timeout), and the answer below would carry that failure.
  const paths = () => stack.simulator.calls.map((call) => call.rawPath);
  await until(() => paths().length >= 3, 0);
  expect(paths().filter((path) => path === LEADERBOARD)).toHaveLength(1);
  expect(stack.simulator.calls.find((call) => call.rawPath === LEADERBOARD)?.status).toBe(0);

  release();
  const response = await answer;
  stack.simulator.clearFaults();
  expect(response.body.errors).toBeUndefined();
  const data = response.body.data as {
    topArtistsByStreams: unknown[];
    chart: { entries: { song: { title: string } | null }[] };
  };
  expect(data.topArtistsByStreams).toHaveLength(2);
  expect(data.chart.entries).toHaveLength(3);
  expect(data.chart.entries.every((entry) => typeof entry.song?.title === 'string')).toBe(true);
});
