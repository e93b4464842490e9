/**
 * The one Redis connection of a gateway process (ioredis), shared by the
 * cache, the budget ledger, the key registry, single flight and the rate
 * limiter: one Redis (REDIS_URL) or a Redis Cluster (REDIS_CLUSTER_NODES,
 * cluster-client.ts). Every key is written under `prefix` (ioredis'
 * keyPrefix) and with a TTL, so a deployment's data is bounded and easy to
 * find.
 *
 * Commands fail at once while the connection is down (no offline queue):
 * each caller then falls back on its own terms (L1 cache, no uncountable
 * upstream call) instead of piling up behind a dead socket. ioredis keeps
 * reconnecting in the background, so the gateway recovers by itself.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from '../config-error.js';
import { isCluster, type RedisClient } from './client.js';
import { connectPrimaries, createClusterClient } from './cluster-client.js';
import { type ClusterSeeds, redactedSeed } from './cluster-nodes.js';
import { CLUSTER_REPLICA_WAIT, type Durability, NO_REPLICA_WAIT } from './durability.js';
import { COMMAND_TIMEOUT_MS, CONNECT_TIMEOUT_MS, reconnectDelay } from './timeouts.js';

export type { RedisClient } from './client.js';

/** REDIS_URL, or REDIS_CLUSTER_NODES parsed. */
export type RedisTarget = string | ClusterSeeds;

export interface SharedRedis {
  readonly client: RedisClient;
  readonly durability: Durability;
  /** True while commands can be sent; /ready reports false otherwise. */
  isUp(): boolean;
  close(): Promise<void>;
}

/**
 * Connects to `target`; throws ConfigError (exit status 2) when Redis cannot be reached at start.
 * `durability` defaults to a replica's acknowledgement on a cluster, none on one Redis.
 */
export async function connectRedis(
  target: RedisTarget,
  prefix: string,
  logger: Logger,
  durability: Durability = typeof target === 'string' ? NO_REPLICA_WAIT : CLUSTER_REPLICA_WAIT,
): Promise<SharedRedis> {
  const client: RedisClient =
    typeof target === 'string'
      ? new Redis(target, {
          keyPrefix: prefix,
          lazyConnect: true,
          enableOfflineQueue: false,
          maxRetriesPerRequest: 0,
          commandTimeout: COMMAND_TIMEOUT_MS,
          connectTimeout: CONNECT_TIMEOUT_MS,
          retryStrategy: reconnectDelay,
        })
      : createClusterClient(target, prefix);
  let lastError: Error | undefined;
  // Without a listener ioredis prints every failed reconnect to stderr; the state changes below are what matter.
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
    if (isCluster(client)) await connectPrimaries(client);
  } catch (error) {
    client.disconnect();
    const reason = (lastError ?? (error as Error)).message;
    throw new ConfigError(`Invalid configuration:\n  ${unreachable(target)} (${reason})`);
  }

  let up = true;
  client.on('close', () => {
    if (!up) return;
    up = false;
    logger.warn(
      { error: lastError?.message },
      'redis down: serving from the in-process cache, no uncountable upstream calls',
    );
  });
  client.on('ready', () => {
    if (up) return;
    up = true;
    logger.info('redis up again');
  });

  return {
    client,
    durability,
    isUp: () => client.status === 'ready',
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

function unreachable(target: RedisTarget): string {
  if (typeof target === 'string') return `REDIS_URL: cannot reach Redis at ${redactedUrl(target)}`;
  const seeds = target.nodes.map(({ host, port }) => redactedSeed(`${host}:${port}`)).join(',');
  return `REDIS_CLUSTER_NODES: cannot reach a Redis Cluster at ${seeds}`;
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
