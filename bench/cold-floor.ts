/**
 * The floor of a cold page against this upstream: the same upstream calls in
 * the same waves (what can only start once an earlier answer is in), made
 * with the gateway's own upstream client on fresh connections and nothing
 * else: no GraphQL, no cache, no answer to write. The gateway's cold wall
 * time less this floor is its own work; the floor less the round trips ×
 * latency is the upstream's (the simulator's) and the connections'.
 */
import { loadConfig } from '../src/config.js';
import { UpstreamClient } from '../src/upstream/client.js';
import { endpoints, type UpstreamRequest } from '../src/upstream/endpoints.js';
import { ReadNotes } from '../src/upstream/reading.js';

// The gateway process runs with the defaults (bench/gateway-process.ts): so does its floor.
const { client: clientOptions, assumptions } = loadConfig({});

interface Waves {
  /** Upstream calls in all: the gateway's estimate for the page, which its first call warms connections for. */
  readonly calls: number;
  run(slug: string, read: <T>(request: UpstreamRequest<T>) => Promise<T>): Promise<unknown>;
}

/** The upstream calls of each cold reference (bench/reference-queries.ts), by name. */
export const COLD_FLOORS: Record<string, Waves> = {
  // The profile and the children's reads start together (src/schema/prefetch.ts).
  'artist page (nested)': {
    calls: 4,
    run: (slug, read) =>
      Promise.all([
        read(endpoints.artist(slug)),
        read(endpoints.artistHistory(slug)),
        read(endpoints.timeline(slug)),
        read(endpoints.songsOfArtist(slug, assumptions.songsOfArtistLimit)),
      ]),
  },
  // The leaderboard, then the twenty histories at once.
  'top 20 artists with 90-day history': {
    calls: 21,
    run: async (_, read) => {
      const top = await read(endpoints.topArtistsByStreams({}, assumptions.rankingLimit));
      return Promise.all(
        top.items.slice(0, 20).map((ranked) => read(endpoints.artistHistory(ranked.item.slug))),
      );
    },
  },
};

/**
 * Wall ms of one cold floor on a fresh client (no connection yet, as a fresh gateway has).
 * `ahead`: as the gateway, its first call opens the connections of the rest while in flight
 * (src/upstream/warm-connections.ts); without, each call opens its own when it leaves.
 */
export async function coldFloorMs(
  waves: Waves,
  upstreamUrl: string,
  apiKey: string,
  slug: string,
  ahead = true,
): Promise<number> {
  const client = new UpstreamClient({ baseUrl: upstreamUrl, ...clientOptions });
  const read = async <T>(request: UpstreamRequest<T>): Promise<T> => {
    const { body } = await client.get(request.key, apiKey, AbortSignal.timeout(30_000));
    return request.read(body, new ReadNotes());
  };
  try {
    const started = performance.now();
    if (ahead) client.expectCalls(waves.calls);
    await waves.run(slug, read);
    return performance.now() - started;
  } finally {
    await client.close();
  }
}
