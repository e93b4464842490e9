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
 * name another upstream (the bench's simulator with connection handshakes).
 */
// First: graphql-js reads NODE_ENV when it loads (src/production-mode.ts).
import '../src/production-mode.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { loadConfig } from '../src/config.js';
import { createProcessLog } from '../src/logger.js';
import { connectRedis } from '../src/redis/connection.js';
import { createGateway } from '../src/server/gateway.js';
import { listen, type RunningServer } from '../src/server/http-server.js';
import { answerQuestions } from './ipc.js';

const upstreamUrl = process.env.BENCH_UPSTREAM_URL;
const upstreamApiKey = process.env.BENCH_UPSTREAM_KEY;
if (upstreamUrl === undefined || upstreamApiKey === undefined) {
  throw new Error('BENCH_UPSTREAM_URL and BENCH_UPSTREAM_KEY are set by bench/run.ts');
}

// Only what the bench needs differs from the defaults: never run out of the day, no per-client rate limit.
const config = loadConfig({ UPSTREAM_DAILY_LIMIT: '100000000', RATE_LIMIT_REQUESTS: '0' });
let running: RunningServer | undefined;
// As `npm start` logs: a JSON line per request on stdout, written asynchronously (bench/run.ts discards it).
const log = createProcessLog(config.logLevel);
// As `npm start` without Redis: the day's count is written through to a file before each call leaves.
const budgetFolder = mkdtempSync(join(tmpdir(), 'bench-budget-'));

/** The Redis and key prefix of the running gateway, if it has them: its keys go with it. */
let shared: { url: string; prefix: string } | undefined;
let freshCount = 0;

/**
 * `upstream`: another simulator than the default one (the bench's with handshakes).
 * `redisUrl`: with Redis, as replicas run, under a key prefix of its own (removed with it).
 */
async function fresh(upstream = upstreamUrl!, redisUrl?: string): Promise<{ url: string }> {
  await running?.close();
  await removeSharedKeys();
  shared =
    redisUrl === undefined
      ? undefined
      : { url: redisUrl, prefix: `bench-${process.pid}-${++freshCount}:` };
  // The gateway closes its Redis connection when it closes.
  const redis =
    shared === undefined ? undefined : await connectRedis(shared.url, shared.prefix, log.logger);
  const gateway = createGateway({
    ...config,
    upstreamUrl: upstream,
    upstreamApiKey,
    logger: log.logger,
    ...(redis === undefined
      ? { stores: { budgetFile: join(budgetFolder, 'budget.json') } }
      : { redis }),
  });
  running = await listen(gateway, 0, '127.0.0.1');
  return { url: `${running.url.replace('localhost', '127.0.0.1')}/graphql` };
}

answerQuestions(
  async (question) => {
    if (question.type === 'fresh')
      return fresh(
        typeof question.upstreamUrl === 'string' ? question.upstreamUrl : undefined,
        typeof question.redisUrl === 'string' ? question.redisUrl : undefined,
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

/** Removes the keys the last gateway wrote under its prefix. */
async function removeSharedKeys(): Promise<void> {
  if (shared === undefined) return;
  const cleaner = new Redis(shared.url);
  try {
    for await (const keys of cleaner.scanStream({ match: `${shared.prefix}*`, count: 500 })) {
      if ((keys as string[]).length > 0) await cleaner.del(...(keys as string[]));
    }
  } finally {
    cleaner.disconnect();
    shared = undefined;
  }
}
