/**
 * Prints start-up time and memory for a dataset size:
 *   npx tsx src/simulator/measure.ts [artists]
 * It starts the simulator, then answers a few requests that touch the global
 * indexes (song leaderboard, albums, search) so the figures include them.
 */
import { startSimulator } from './index.js';

const MB = 1024 * 1024;

async function measure(): Promise<void> {
  const artists = Number(process.argv[2] ?? 300);
  const started = performance.now();
  const simulator = await startSimulator({ artists, dataDate: '2026-11-21' });
  const startMs = performance.now() - started;
  const rssAfterStart = process.memoryUsage().rss;
  const headers = { authorization: 'Bearer demo-key' };
  const top = simulator.data.leaderboardStreams({ limit: 1 })[0];
  const paths = [
    '/api/v1/leaderboard/songs?limit=100',
    '/api/v1/trending/songs?limit=100',
    '/api/v1/albums?sortBy=releaseDate',
    '/api/v1/milestones/recent',
    `/api/v1/songs/search?title=love&artistName=${encodeURIComponent(top?.name ?? 'a')}`,
  ];
  const requestsStarted = performance.now();
  for (const path of paths) {
    const response = await fetch(`${simulator.url}${path}`, { headers });
    await response.arrayBuffer();
  }
  const requestsMs = performance.now() - requestsStarted;
  const rss = process.memoryUsage().rss;
  console.log(
    JSON.stringify({
      artists,
      songs: simulator.data.songCount,
      albums: simulator.data.albumCount,
      startMs: Math.round(startMs),
      rssAfterStartMB: Math.round(rssAfterStart / MB),
      firstRequestsMs: Math.round(requestsMs),
      rssMB: Math.round(rss / MB),
      heapUsedMB: Math.round(process.memoryUsage().heapUsed / MB),
    }),
  );
  await simulator.close();
}

measure().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
