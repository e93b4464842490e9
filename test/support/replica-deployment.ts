/**
 * Gateway processes of one deployment for a spec: one simulator, the shared
 * Redis or a Redis Cluster of the spec's own (shared-store.ts), and replicas
 * the test starts, each test under a key prefix of its own. After each test
 * the replicas stop and the prefix's keys go, and none of them may have
 * been written without a time to live.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect } from 'vitest';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { NO_TTL, uniquePrefix } from './redis.js';
import { type Replica, type ReplicaOptions, startReplica } from './replicas.js';
import { openSharedStore, type SharedStore, type StoreKind } from './shared-store.js';
import { SERVER_KEY } from './stack.js';

/** A cluster of six redis-servers takes a few seconds to form on a busy machine. */
const STORE_START_TIMEOUT_MS = 60_000;

export interface ReplicaDeployment {
  readonly simulator: Simulator;
  /** Where the replicas share their economy. */
  readonly store: SharedStore;
  /** The current test's key prefix. */
  readonly prefix: string;
  /** The current test's keys as Redis holds them (prefixed), with their TTLs in ms. */
  keys(): Promise<Map<string, number>>;
  /** Starts `count` replicas on the simulator and the shared store, under the test's prefix. */
  start(count: number, env?: Record<string, string>, options?: ReplicaOptions): Promise<Replica[]>;
  /** Calls that reached the simulator in this test. */
  calls(): number;
  /** `count` real artists' slugs from the `from`th. */
  slugs(from: number, count: number): string[];
}

export function useReplicaDeployment(kind: StoreKind = 'one Redis'): ReplicaDeployment {
  let simulator: Simulator | undefined;
  let store: SharedStore | undefined;
  let prefix = '';
  const replicas: Replica[] = [];
  beforeAll(async () => {
    simulator = await startSimulator({ apiKeys: [SERVER_KEY], dailyLimit: 1_000_000 });
    store = await openSharedStore(kind);
  }, STORE_START_TIMEOUT_MS);
  afterAll(async () => {
    await store?.close();
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
    const keys = await deployment.keys();
    await deployment.store.deleteUnder(prefix);
    // Everything the gateway stores is bounded: no key without a time to live.
    expect([...keys].filter(([, ttl]) => ttl === NO_TTL)).toEqual([]);
  });

  const deployment: ReplicaDeployment = {
    get simulator() {
      if (simulator === undefined) throw new Error('the deployment starts in beforeAll');
      return simulator;
    },
    get store() {
      if (store === undefined) throw new Error('the deployment starts in beforeAll');
      return store;
    },
    get prefix() {
      return prefix;
    },
    keys: () => deployment.store.keysUnder(prefix),
    async start(count, env = {}, options = {}) {
      const started = await Promise.all(
        Array.from({ length: count }, () =>
          startReplica(
            {
              UPSTREAM_URL: deployment.simulator.url,
              UPSTREAM_API_KEY: SERVER_KEY,
              ...deployment.store.env,
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
