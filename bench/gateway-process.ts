/**
 * The gateway as the bench measures it, in a process of its own (started by
 * bench/run.ts): the normal `createGateway` + `listen` entry points, server-key
 * mode against the simulator, the request log and the budget file of `npm start`
 * without Redis, every protection on except the per-client rate
 * limit (it would throttle the load generator, which is a single client).
 *
 * `fresh` closes the current gateway and starts a new one with empty caches in
 * this same, already warm process: a cold page is then measured the way a
 * user meets it on a running server, not with a JIT that has never run. It may
 * name another upstream (the bench's simulator with connection handshakes),
 * and one Redis or a Redis Cluster to share its stores through, as replicas do.
 */
// First: graphql-js reads NODE_ENV when it loads (src/production-mode.ts).
import '../src/production-mode.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/gateway/gateway.js';
import { createProcessLog } from '../src/logger.js';
import { parseClusterSeeds } from '../src/redis/cluster-nodes.js';
import { connectRedis } from '../src/redis/connection.js';
import { listen, type RunningServer } from '../src/server/http/http-server.js';
import { answerQuestions } from './ipc.js';
import { lastPhases, markRequests } from './request-phases.js';

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
const upstreamApiKey = process.env.BENCH_UPSTREAM_KEY;
if (upstreamUrl === undefined || upstreamApiKey === undefined) {
  throw new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are set by bench/run.ts');
}

// Only what the bench needs differs from the defaults: never run out of the day, no per-client
// rate limit, and one process (this one), whose bounds are the machine's rather than one worker's share.
const config = loadConfig({
  UPSTREAM_DAILY_LIMIT: '100000000',
  RATE_LIMIT_REQUESTS: '0',
  WORKERS: '1',
});
let running: RunningServer | undefined;
// As `npm start` logs: a JSON line per request on stdout, written asynchronously (bench/run.ts discards it).
const log = createProcessLog(config.logLevel);
// As `npm start` without Redis: the day's count is written through to a file before each call leaves.
const budgetFolder = mkdtempSync(join(tmpdir(), 'bench-budget-'));

/** Where the running gateway shares its stores, and its key prefix there: its keys go with it. */
let shared: { redis: SharedTarget; prefix: string } | undefined;
let freshCount = 0;

/** One Redis (its URL) or a cluster (its seeds, as REDIS_CLUSTER_NODES). */
type SharedTarget = { readonly url: string } | { readonly clusterNodes: string };

/**
 * `upstream`: another simulator than the default one (the bench's with handshakes).
 * `redis`: with one Redis or a cluster, as replicas run, under a key prefix of its own (removed
 * with it).
 */
async function fresh(upstream = upstreamUrl!, redis?: SharedTarget): Promise<{ url: string }> {
  await running?.close();
  await removeSharedKeys();
  shared =
    redis === undefined ? undefined : { redis, prefix: `bench-${process.pid}-${++freshCount}:` };
  // The gateway closes its Redis connection when it closes. A cluster waits for a replica's
  // acknowledgement of each reservation, as REDIS_CLUSTER_NODES does by default.
  const connection =
    shared === undefined
      ? undefined
      : await connectRedis(
          'url' in shared.redis ? shared.redis.url : parseClusterSeeds(shared.redis.clusterNodes),
          shared.prefix,
          log.logger,
        );
  const gateway = createGateway({
    ...config,
    upstreamUrl: upstream,
    upstreamApiKey,
    logger: log.logger,
    ...(connection === undefined
      ? { stores: { budgetFile: join(budgetFolder, 'budget.json') } }
      : { redis: connection }),
  });
  running = await listen(gateway, 0, '127.0.0.1');
  return { url: `${running.url.replace('localhost', '127.0.0.1')}/graphql` };
}

markRequests();
answerQuestions(
  async (question) => {
    if (question.type === 'phases') return lastPhases() ?? null;
    if (question.type === 'fresh')
      return fresh(
        typeof question.upstreamUrl === 'string' ? question.upstreamUrl : undefined,
        typeof question.redisUrl === 'string'
          ? { url: question.redisUrl }
          : typeof question.redisCluster === 'string'
            ? { clusterNodes: question.redisCluster }
            : undefined,
      );
    throw new Error(`unknown question ${question.type}`);
  },
  async () => {
    await running?.close();
    await removeSharedKeys();
    rmSync(budgetFolder, { recursive: true, force: true });
    await log.close(1_000);
  },
);

/** Removes the keys the last gateway wrote under its prefix (on every primary of a cluster). */
async function removeSharedKeys(): Promise<void> {
  if (shared === undefined) return;
  const { redis, prefix } = shared;
  const cluster =
    'clusterNodes' in redis
      ? new Cluster(
          parseClusterSeeds(redis.clusterNodes).nodes.map(({ host, port }) => ({ host, port })),
        )
      : undefined;
  const nodes = cluster === undefined ? [new Redis((redis as { url: string }).url)] : undefined;
  try {
    if (cluster !== undefined) await new Promise((resolve) => cluster.once('ready', resolve));
    for (const node of nodes ?? cluster!.nodes('master')) {
      for await (const keys of node.scanStream({ match: `${prefix}*`, count: 500 })) {
        // One DEL per key: on a cluster, keys of two slots never go in one command.
        for (const key of keys as string[]) await (cluster ?? node).del(key);
      }
    }
  } finally {
    cluster?.disconnect();
    for (const node of nodes ?? []) node.disconnect();
    shared = undefined;
  }
}
