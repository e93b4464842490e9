/**
 * The ioredis Cluster client behind REDIS_CLUSTER_NODES: it learns the
 * cluster's slots from the seeds, sends each command to the primary of its
 * key's slot (never to a replica: a count read from a replica may be
 * behind), follows MOVED and ASK, and finds a failed primary's successor by
 * itself. Like the one-Redis client, it fails a command at once rather than
 * queue it while it has no connection; while a slot has no primary, a
 * command to it is retried for a moment (a failover takes one
 * cluster-node-timeout or so), then fails, and the caller falls back.
 */
import { once } from 'node:events';
import { Cluster, type ClusterOptions } from 'ioredis';
import type { ClusterSeeds } from './cluster-nodes.js';
import { COMMAND_TIMEOUT_MS, CONNECT_TIMEOUT_MS, reconnectDelay } from './timeouts.js';

/** Between tries of a command whose slot is moving (MOVED to a dead node, CLUSTERDOWN, TRYAGAIN). */
const RETRY_DELAY_MS = 100;
/** Tries of one command before it fails: with RETRY_DELAY_MS, about a second. */
const MAX_REDIRECTIONS = 10;

export function createClusterClient(seeds: ClusterSeeds, prefix: string): Cluster {
  const options: ClusterOptions = {
    keyPrefix: prefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    scaleReads: 'master',
    maxRedirections: MAX_REDIRECTIONS,
    retryDelayOnFailover: RETRY_DELAY_MS,
    retryDelayOnClusterDown: RETRY_DELAY_MS,
    retryDelayOnTryAgain: RETRY_DELAY_MS,
    clusterRetryStrategy: reconnectDelay,
    // Managed clusters (ElastiCache, Memorystore) announce nodes by IP behind TLS certificates
    // issued to a name: the seeds' names are kept for the TLS handshake, not resolved away.
    ...(seeds.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
    redisOptions: {
      ...(seeds.username === undefined ? {} : { username: seeds.username }),
      ...(seeds.password === undefined ? {} : { password: seeds.password }),
      ...(seeds.tls ? { tls: {} } : {}),
      maxRetriesPerRequest: 0,
      commandTimeout: COMMAND_TIMEOUT_MS,
      connectTimeout: CONNECT_TIMEOUT_MS,
    },
  };
  const cluster = new Cluster(
    seeds.nodes.map(({ host, port }) => ({ host, port })),
    options,
  );
  // Once ready, and each time the slots are learnt again (after a MOVED, a failover): see
  // connectPrimaries. Not before ready: the cluster's own ready check would meet a node
  // connecting, be refused like any command, and start the connection over.
  cluster.on('ready', () => void connectPrimaries(cluster));
  cluster.on('refresh', () => {
    if (cluster.status === 'ready') void connectPrimaries(cluster);
  });
  return cluster;
}

/**
 * Opens the connection to every primary now, rather than at its first command. ioredis connects
 * to a node lazily, and without an offline queue it refuses the commands that arrive while that
 * connection is being made, then retries them a failover's delay later, so that the first page
 * after a start or a failover would wait that delay for reads that take a millisecond. Resolves
 * once each is ready, or has failed (its commands then fail or wait as they would have).
 */
export async function connectPrimaries(cluster: Cluster): Promise<void> {
  await Promise.all(
    cluster.nodes('master').map(async (node) => {
      if (node.status === 'wait') node.connect().catch(() => undefined);
      if (node.status === 'ready') return;
      await Promise.race([once(node, 'ready'), once(node, 'end')]).catch(() => undefined);
    }),
  );
}
