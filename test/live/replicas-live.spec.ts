/**
 * Issue 11 with 3 gateway processes, one Redis, one simulator and 9 SSE
 * subscribers (REFRESH_POLL_SECONDS=1): one poll per interval reaches the
 * upstream for the whole deployment, a published milestone reaches every
 * subscriber exactly once, and a cached record costs nothing until the
 * upstream refreshes, then one call in all. Figures are calls counted at the
 * simulator; every wait is for a condition.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import {
  deleteUnder,
  keysUnder,
  NO_TTL,
  SHARED_REDIS_URL,
  uniquePrefix,
} from '../support/redis.js';
import { pollsSeen, type Replica, startReplica, until } from '../support/replicas.js';
import { announcedOnceEach, type Subscriber, subscribe } from '../support/sse.js';
import { SERVER_KEY } from '../support/stack.js';

const POLL_PATH = '/api/v1/milestones/recent';
const SUBSCRIPTION = 'subscription { milestoneCrossed { id threshold artist { slug name } } }';

let simulator: Simulator;
let redis: Redis;
let prefix: string;
let replicas: Replica[];
const subscribers: Subscriber[] = [];

beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
  redis = new Redis(SHARED_REDIS_URL);
  prefix = uniquePrefix();
  replicas = await Promise.all(
    Array.from({ length: 3 }, () =>
      startReplica({
        UPSTREAM_URL: simulator.url,
        UPSTREAM_API_KEY: SERVER_KEY,
        UPSTREAM_DAILY_LIMIT: '1000000',
        REDIS_URL: SHARED_REDIS_URL,
        REDIS_KEY_PREFIX: prefix,
        REFRESH_POLL_SECONDS: '1',
      }),
    ),
  );
  // Three processes starting on a shared, busy machine: as long as a replica's own start allows.
}, 90_000);

afterAll(async () => {
  for (const subscriber of subscribers) subscriber.close();
  await Promise.all((replicas ?? []).map((replica) => replica.stop('SIGTERM')));
  const keys = await keysUnder(redis, prefix);
  await deleteUnder(redis, prefix);
  redis.disconnect();
  await simulator.close();
  // Everything the gateway stores is bounded, the generation included.
  expect([...keys].filter(([, ttl]) => ttl === NO_TTL)).toEqual([]);
});

const polls = () => simulator.calls.filter((call) => call.rawPath === POLL_PATH).length;
const callsTo = (path: string) => simulator.calls.filter((call) => call.rawPath === path).length;
const generationOf = async (replica: Replica) =>
  (
    (await replica.query('{ apiUsage { used } }')).body.extensions?.freshness as
      | { generation: number }
      | undefined
  )?.generation;

describe('live data across 3 replicas', () => {
  it('one poll per interval reaches the upstream for the whole deployment', async () => {
    const { made, seconds } = await pollsSeen(polls, 5);
    // Three replicas, each trying five times a second: still one poll per second, give or take one.
    expect(made).toBeLessThanOrEqual(seconds + 1);
    expect(simulator.calls.every((call) => call.rawPath === POLL_PATH)).toBe(true);
  });

  it('a published milestone reaches each of 9 subscribers exactly once, with no upstream call of theirs', async () => {
    for (const replica of replicas) {
      for (let i = 0; i < 3; i += 1) subscribers.push(await subscribe(replica.url, SUBSCRIPTION));
    }
    // Each replica has subscribed to the shared channel.
    await until(async () => {
      const [, count] = (await redis.pubsub('NUMSUB', `${prefix}milestone-crossed`)) as [
        string,
        number,
      ];
      return count === 3;
    });
    const slug = simulator.data.allArtists()[5]!.slug;
    const profileCalls = callsTo(`/api/v1/artists/${slug}`);
    const published = simulator.publishMilestone(slug)!;

    // Three more polls: none of them announces the milestone again.
    await announcedOnceEach(subscribers, polls, {
      id: published.id,
      threshold: published.threshold,
      artist: { slug, name: published.artistName },
    });
    // Slug and name come with the milestone: the 9 subscribers read nothing upstream.
    expect(callsTo(`/api/v1/artists/${slug}`)).toBe(profileCalls);
    expect(simulator.calls.every((call) => call.rawPath === POLL_PATH)).toBe(true);
  });

  it('a cached artist costs 0 calls until the upstream refreshes, then 1 call in all and the new value on every replica', async () => {
    const slug = simulator.data.allArtists()[9]!.slug;
    const path = `/api/v1/artists/${slug}`;
    const query = `{ artist(slug: "${slug}") { totalStreams } }`;
    const read = async (replica: Replica) =>
      ((await replica.query(query)).body.data?.artist as { totalStreams: number } | undefined)
        ?.totalStreams;
    const before = await read(replicas[0]!);
    expect(callsTo(path)).toBe(1);

    // Several poll intervals without news: the cached answer stays the answer, on every replica, at no cost.
    const after = polls();
    await until(() => polls() >= after + 3);
    for (const replica of replicas) expect(await read(replica)).toBe(before);
    expect(callsTo(path)).toBe(1);

    const generation = (await generationOf(replicas[0]!))!;
    simulator.publishMilestone(slug);
    const now = simulator.data.artistBySlug(slug)!.totalStreams;
    expect(now).toBeGreaterThan(before as number);
    await until(async () =>
      (await Promise.all(replicas.map(generationOf))).every((id) => id === generation + 1),
    );
    // The next reads: the previous answer at once, one background refresh, then the new value everywhere.
    await until(async () =>
      (await Promise.all(replicas.map(read))).every((value) => value === now),
    );
    expect(callsTo(path)).toBe(2);
  });
});
