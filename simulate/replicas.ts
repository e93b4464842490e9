/**
 * N gateways in this process, each with its own HTTP server and Redis
 * connection, sharing one Redis under a key prefix of their own, configured as
 * `npm start` would be (loadConfig, so any gateway variable set in the
 * environment applies) except for what the simulation fixes: server-key mode,
 * the daily limit, no per-client share or rate limit (views come from many
 * users), the poll interval.
 *
 * The refresh poll is driven by the harness (pollNow on one replica per
 * simulated interval): the poll lease is a real-time Redis TTL that would not
 * follow the moved clock, so the harness holds it for the whole run and the
 * replicas' own ticks only load the shared generation.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { RedisPollLease } from '../src/coordination/redis-poll-lease.js';
import { createGateway, type Gateway } from '../src/gateway/gateway.js';
import { connectRedis } from '../src/redis/connection.js';
import { listen, type RunningServer } from '../src/server/http/http-server.js';

/** Longer than any run: the replicas never take the poll lease themselves. */
const LEASE_HOLD_MS = 7 * 86_400_000;

export interface Replica {
  readonly gateway: Gateway;
  readonly url: string;
}

export interface ReplicaSet {
  readonly replicas: readonly Replica[];
  readonly prefix: string;
  /** Deletes every key under the prefix, then closes the gateways and connections. */
  close(): Promise<void>;
}

export interface ReplicaSetOptions {
  readonly count: number;
  readonly redisUrl: string;
  readonly upstreamUrl: string;
  readonly upstreamApiKey: string;
  readonly dailyLimit: number;
  readonly pollMinutes: number;
  /** Key prefix; default `simulate-<random>:`. */
  readonly prefix?: string;
}

export async function startReplicas(options: ReplicaSetOptions): Promise<ReplicaSet> {
  const prefix = options.prefix ?? `simulate-${randomUUID().slice(0, 8)}:`;
  const logger = pino({ level: 'silent' });
  const admin = new Redis(options.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await admin.connect();
  const holder = new Redis(options.redisUrl, { keyPrefix: prefix, maxRetriesPerRequest: 1 });
  if (!(await new RedisPollLease(holder).take(LEASE_HOLD_MS)))
    throw new Error(`the refresh poll lease under ${prefix} is taken: is another run using it?`);
  const config = loadConfig({
    ...process.env,
    UPSTREAM_URL: options.upstreamUrl,
    UPSTREAM_API_KEY: options.upstreamApiKey,
    UPSTREAM_DAILY_LIMIT: String(options.dailyLimit),
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: prefix,
    CLIENT_BUDGET_SHARE: '1',
    RATE_LIMIT_REQUESTS: '0',
    REFRESH_POLL_SECONDS: String(options.pollMinutes * 60),
    WORKERS: '1',
    LOG_LEVEL: 'silent',
  });
  const replicas: Replica[] = [];
  const servers: RunningServer[] = [];
  for (let i = 0; i < options.count; i += 1) {
    const redis = await connectRedis(options.redisUrl, prefix, logger);
    const gateway = createGateway({
      ...config,
      upstreamUrl: options.upstreamUrl,
      upstreamApiKey: options.upstreamApiKey,
      logger,
      channelPrefix: prefix,
      redis,
      stores: { clientBudgetShare: 1, trustProxy: false },
      now: () => new Date(),
    });
    const running = await listen(gateway, 0, '127.0.0.1');
    servers.push(running);
    replicas.push({ gateway, url: running.url.replace('localhost', '127.0.0.1') });
  }
  return {
    replicas,
    prefix,
    async close() {
      await Promise.all(servers.map((server) => server.close(1_000)));
      holder.disconnect();
      await deleteKeysUnder(admin, prefix);
      admin.disconnect();
    },
  };
}

/** Deletes every key under `prefix`: a run leaves nothing in the Redis it shares. */
export async function deleteKeysUnder(admin: Redis, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await admin.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1_000);
    cursor = next;
    if (keys.length > 0) await admin.del(...keys);
  } while (cursor !== '0');
}
