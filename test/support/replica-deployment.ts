/**
 * Gateway processes of one deployment for a spec: one simulator, the shared
 * Redis, and replicas the test starts, each test under a key prefix of its
 * own. After each test the replicas stop and the prefix's keys go, and none
 * of them may have been written without a time to live.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { deleteUnder, keysUnder, NO_TTL, SHARED_REDIS_URL, uniquePrefix } from './redis.js';
import { type Replica, type ReplicaOptions, startReplica } from './replicas.js';
import { SERVER_KEY } from './stack.js';

export interface ReplicaDeployment {
  readonly simulator: Simulator;
  /** Unprefixed: sees the deployment's keys as Redis holds them. */
  readonly redis: Redis;
  /** The current test's key prefix. */
  readonly prefix: string;
  /** Starts `count` replicas on the simulator and the shared Redis, under the test's prefix. */
  start(count: number, env?: Record<string, string>, options?: ReplicaOptions): Promise<Replica[]>;
  /** Calls that reached the simulator in this test. */
  calls(): number;
  /** `count` real artists' slugs from the `from`th. */
  slugs(from: number, count: number): string[];
}

export function useReplicaDeployment(): ReplicaDeployment {
  let simulator: Simulator | undefined;
  let redis: Redis | undefined;
  let prefix = '';
  const replicas: Replica[] = [];
  beforeAll(async () => {
    simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
    redis = new Redis(SHARED_REDIS_URL);
  });
  afterAll(async () => {
    redis?.disconnect();
    await simulator?.close();
  });
  beforeEach(() => {
    prefix = uniquePrefix();
    simulator?.resetCalls();
    simulator?.clearFaults();
    simulator?.setLatency(0);
  });
  afterEach(async () => {
    await Promise.all(replicas.splice(0).map((replica) => replica.stop()));
    const keys = await keysUnder(deployment.redis, prefix);
    await deleteUnder(deployment.redis, prefix);
    // Everything the gateway stores is bounded: no key without a time to live.
    expect([...keys].filter(([, ttl]) => ttl === NO_TTL)).toEqual([]);
  });

  const deployment: ReplicaDeployment = {
    get simulator() {
      if (simulator === undefined) throw new Error('the deployment starts in beforeAll');
      return simulator;
    },
    get redis() {
      if (redis === undefined) throw new Error('the deployment starts in beforeAll');
      return redis;
    },
    get prefix() {
      return prefix;
    },
    async start(count, env = {}, options = {}) {
      const started = await Promise.all(
        Array.from({ length: count }, () =>
          startReplica(
            {
              UPSTREAM_URL: deployment.simulator.url,
              UPSTREAM_API_KEY: SERVER_KEY,
              REDIS_URL: SHARED_REDIS_URL,
              REDIS_KEY_PREFIX: prefix,
              ...env,
            },
            options,
          ),
        ),
      );
      replicas.push(...started);
      return started;
    },
    calls: () => deployment.simulator.calls.length,
    slugs: (from, count) =>
      deployment.simulator.data
        .allArtists()
        .slice(from, from + count)
        .map((artist) => artist.slug),
  };
  return deployment;
}

/** One aliased `artist` field per slug: one upstream call each when cold. */
export const artistsQuery = (names: string[]) =>
  `{ ${names.map((slug, i) => `a${i}: artist(slug: "${slug}") { name followers }`).join(' ')} }`;

/** The error codes of an answer, in order. */
export const codes = (response: {
  body: { errors?: { extensions?: Record<string, unknown> }[] };
}) => (response.body.errors ?? []).map((error) => error.extensions?.code);

export const USAGE = '{ apiUsage { used remaining } }';
