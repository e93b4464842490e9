/**
 * Where a test deployment's replicas share their economy: the shared
 * redis-server on 127.0.0.1:6379 ("one Redis"), or a Redis Cluster of the
 * spec's own (redis-cluster.ts, "cluster"). Specs that hold for both run
 * once over each.
 */
import { Redis } from 'ioredis';
import { deleteUnder, keysUnder, SHARED_REDIS_URL } from './redis.js';
import { type OwnCluster, startOwnCluster } from './redis-cluster.js';

export type StoreKind = 'one Redis' | 'cluster';
export const STORE_KINDS: readonly StoreKind[] = ['one Redis', 'cluster'];

export interface SharedStore {
  readonly kind: StoreKind;
  /** What a replica is started with to use it: REDIS_URL or REDIS_CLUSTER_NODES. */
  readonly env: Readonly<Record<string, string>>;
  /** The cluster, for tests that kill its nodes; undefined for one Redis. */
  readonly cluster: OwnCluster | undefined;
  /** Every key under `prefix`, as Redis holds it, with its time to live in ms (-1: none). */
  keysUnder(prefix: string): Promise<Map<string, number>>;
  deleteUnder(prefix: string): Promise<void>;
  close(): Promise<void>;
}

export async function openSharedStore(kind: StoreKind): Promise<SharedStore> {
  if (kind === 'one Redis') {
    const redis = new Redis(SHARED_REDIS_URL);
    return {
      kind,
      env: { REDIS_URL: SHARED_REDIS_URL },
      cluster: undefined,
      keysUnder: (prefix) => keysUnder(redis, prefix),
      deleteUnder: (prefix) => deleteUnder(redis, prefix),
      async close() {
        redis.disconnect();
      },
    };
  }
  const cluster = await startOwnCluster();
  return {
    kind,
    env: { REDIS_URL: '', REDIS_CLUSTER_NODES: cluster.seeds },
    cluster,
    keysUnder: (prefix) => cluster.keysUnder(prefix),
    deleteUnder: (prefix) => cluster.deleteUnder(prefix),
    close: () => cluster.stop(),
  };
}
