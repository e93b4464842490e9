/**
 * Configuration, from environment variables only, validated at start: every
 * bad value is reported with its variable name, all at once.
 */
import { z } from 'zod';
import { ConfigError } from './config-error.js';
import { DEFAULT_CIRCUIT } from './coordination/circuit-breaker.js';
import { DEFAULT_KEY_TTLS } from './coordination/key-registry.js';
import { DEFAULT_HEAD_SHARE, defaultBurst } from './economy/spending-plan.js';
import type { GatewayConfig } from './gateway/gateway-config.js';
import { DEFAULT_STALE_GRACE_MS } from './reads/grace.js';
import { type ClusterSeeds, parseClusterSeeds } from './redis/cluster-nodes.js';
import { CLUSTER_REPLICA_WAIT, type Durability, NO_REPLICA_WAIT } from './redis/durability.js';
import {
  DEFAULT_ANSWER_BACKLOG_TOTAL_BYTES,
  DEFAULT_COMPRESSION_MIN_BYTES,
} from './server/http/compressed-responses.js';
import { DEFAULT_REQUEST_BODIES_TOTAL_BYTES } from './server/memory/request-bodies.js';
import { DEFAULT_CONCURRENT_ANSWERS } from './server/memory/request-turns.js';
import {
  DEFAULT_SUBSCRIBER_BACKLOG_BYTES,
  DEFAULT_SUBSCRIBER_BACKLOG_TOTAL_BYTES,
} from './server/memory/subscriber-backlog.js';
import { DEFAULT_RESPONSE_CACHE_MAX_BYTES } from './server/response-cache/stored-response.js';
import {
  DEFAULT_CLIENT_BUDGET_SHARE,
  DEFAULT_GRACE_MS,
  DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS,
  DEFAULT_INTROSPECTION,
  DEFAULT_MANIFEST_PATH,
  DEFAULT_MAX_ALIASES,
  DEFAULT_MAX_DEPTH,
  DEFAULT_MAX_DIRECTIVES,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_TOKENS,
  DEFAULT_MAX_UPSTREAM_COST,
  DEFAULT_PERSISTED_OPERATIONS_MODE,
  DEFAULT_RATE_LIMIT_REQUESTS,
  DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
  DEFAULT_SUBSCRIPTIONS_PER_CLIENT,
  DEFAULT_UNKNOWN_KEYS_PER_MINUTE,
} from './setting-defaults.js';
import { DEFAULT_ASSUMPTIONS, MAX_PAGE_SIZE } from './upstream/endpoints.js';
import { autoWorkersHere, MAX_WORKERS } from './worker-count.js';

const DAY_SECONDS = 24 * 60 * 60;

const integer = (fallback: number, min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, 'must be a whole number')
    .transform(Number)
    .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
    .default(String(fallback));

const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .pipe(z.enum(['true', 'false', '1', '0'], { message: 'must be true or false' }))
    .transform((value) => value === 'true' || value === '1')
    .default(fallback ? 'true' : 'false');

const fraction = (fallback: number) =>
  z
    .string()
    .trim()
    .regex(/^(0|1)?(\.\d+)?$/, 'must be a number such as 0.5')
    .transform(Number)
    .pipe(z.number().gt(0, 'must be more than 0').max(1, 'must be at most 1'))
    .default(String(fallback));

/** The smallest cache bound a variable accepts, and so the least share a worker holds. */
const MIN_CACHE_BYTES = 1_024;

/** `auto` (the default: one per core, as the memory allows: worker-count.ts) or a count of processes. */
const workerCount = z
  .string()
  .trim()
  .toLowerCase()
  .default('auto')
  .transform((text, context): 'auto' | number => {
    if (text === 'auto') return text;
    const count = Number(text);
    if (!/^\d+$/.test(text) || count < 1 || count > MAX_WORKERS) {
      context.addIssue({
        code: z.ZodIssueCode.custom,
        message: `must be auto or a whole number from 1 to ${MAX_WORKERS}`,
      });
      return z.NEVER;
    }
    return count;
  });

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

/** A whole number with no default: unset or empty means absent. */
const optionalInteger = (min: number, max: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, 'must be a whole number')
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .optional(),
  );

const environment = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: integer(4000, 0, 65_535),
  METRICS_PORT: optionalInteger(1, 65_535),
  UPSTREAM_URL: optionalText.pipe(
    z
      .string()
      .url('must be an absolute URL such as https://api.example.com')
      .refine((url) => /^https?:$/.test(new URL(url).protocol), 'must be an http or https URL')
      .optional(),
  ),
  UPSTREAM_API_KEY: optionalText,
  UPSTREAM_DAILY_LIMIT: integer(1000, 1, 100_000_000),
  UPSTREAM_CONNECT_TIMEOUT_MS: integer(3_000, 1, 600_000),
  UPSTREAM_HEADERS_TIMEOUT_MS: integer(8_000, 1, 600_000),
  UPSTREAM_BODY_TIMEOUT_MS: integer(8_000, 1, 600_000),
  UPSTREAM_DEADLINE_MS: integer(15_000, 1, 600_000),
  UPSTREAM_MAX_CONCURRENCY: integer(32, 1, 1_000),
  UPSTREAM_MAX_QUEUE: integer(1_000, 0, 1_000_000),
  UPSTREAM_MAX_BODY_BYTES: integer(1024 * 1024, 1_024, 1024 * 1024 * 1024),
  UPSTREAM_RETRIES: integer(2, 0, 10),
  UPSTREAM_SONGS_OF_ARTIST_LIMIT: integer(DEFAULT_ASSUMPTIONS.songsOfArtistLimit, 1, 10_000),
  UPSTREAM_RANKING_LIMIT: integer(DEFAULT_ASSUMPTIONS.rankingLimit, 1, MAX_PAGE_SIZE),
  CACHE_TTL_SECONDS: integer(2 * DAY_SECONDS, 0, 7 * DAY_SECONDS),
  REFRESH_POLL_SECONDS: integer(60 * 60, 1, DAY_SECONDS),
  CACHE_NOT_FOUND_TTL_SECONDS: integer(10 * 60, 0, 7 * DAY_SECONDS),
  CACHE_RETENTION_SECONDS: integer(30 * DAY_SECONDS, 60, 365 * DAY_SECONDS),
  BUDGET_PLAN: flag(true),
  BUDGET_HEAD_SHARE: fraction(DEFAULT_HEAD_SHARE),
  BUDGET_BURST_CALLS: optionalInteger(1, 1_000_000),
  PASS_THROUGH_NEW_KEYS_PER_MINUTE: integer(DEFAULT_UNKNOWN_KEYS_PER_MINUTE, 1, 100_000),
  CACHE_STALE_GRACE_MS: integer(DEFAULT_STALE_GRACE_MS, 0, 60_000),
  CIRCUIT_FAILURE_THRESHOLD: integer(DEFAULT_CIRCUIT.failureThreshold, 1, 1_000),
  CIRCUIT_OPEN_MS: integer(DEFAULT_CIRCUIT.openMs, 100, 60 * 60 * 1000),
  CACHE_MAX_ENTRIES: integer(200_000, 1, 10_000_000),
  CACHE_MAX_BYTES: integer(96 * 1024 * 1024, MIN_CACHE_BYTES, 64 * 1024 * 1024 * 1024),
  RESPONSE_CACHE_MAX_BYTES: integer(
    DEFAULT_RESPONSE_CACHE_MAX_BYTES,
    MIN_CACHE_BYTES,
    64 * 1024 * 1024 * 1024,
  ),
  MAX_UPSTREAM_COST: integer(DEFAULT_MAX_UPSTREAM_COST, 0, 1_000_000),
  GRAPHQL_MAX_DEPTH: integer(DEFAULT_MAX_DEPTH, 1, 1_000),
  GRAPHQL_MAX_ALIASES: integer(DEFAULT_MAX_ALIASES, 0, 10_000),
  GRAPHQL_MAX_DIRECTIVES: integer(DEFAULT_MAX_DIRECTIVES, 0, 10_000),
  GRAPHQL_MAX_TOKENS: integer(DEFAULT_MAX_TOKENS, 10, 1_000_000),
  GRAPHQL_MAX_REQUEST_BYTES: integer(DEFAULT_MAX_REQUEST_BYTES, 256, 100 * 1024 * 1024),
  GRAPHQL_INTROSPECTION: flag(DEFAULT_INTROSPECTION),
  GRAPHIQL: flag(true),
  PERSISTED_OPERATIONS: z.enum(['apq', 'allow-list']).default(DEFAULT_PERSISTED_OPERATIONS_MODE),
  PERSISTED_OPERATIONS_MANIFEST: z.string().trim().min(1).default(DEFAULT_MANIFEST_PATH),
  HTTP_CACHE_MAX_AGE_SECONDS: integer(DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS, 0, DAY_SECONDS),
  RESPONSE_COMPRESSION: flag(true),
  RESPONSE_COMPRESSION_MIN_BYTES: integer(DEFAULT_COMPRESSION_MIN_BYTES, 0, 1024 * 1024 * 1024),
  RATE_LIMIT_REQUESTS: integer(DEFAULT_RATE_LIMIT_REQUESTS, 0, 1_000_000),
  RATE_LIMIT_WINDOW_SECONDS: integer(DEFAULT_RATE_LIMIT_WINDOW_SECONDS, 1, DAY_SECONDS),
  RATE_LIMIT_TRUST_PROXY: flag(false),
  SUBSCRIPTIONS_PER_CLIENT: integer(DEFAULT_SUBSCRIPTIONS_PER_CLIENT, 1, 10_000),
  SUBSCRIBER_BACKLOG_BYTES: integer(DEFAULT_SUBSCRIBER_BACKLOG_BYTES, 1_024, 1024 * 1024 * 1024),
  SUBSCRIBER_BACKLOG_TOTAL_BYTES: integer(
    DEFAULT_SUBSCRIBER_BACKLOG_TOTAL_BYTES,
    1_024,
    64 * 1024 * 1024 * 1024,
  ),
  CONCURRENT_ANSWERS: integer(DEFAULT_CONCURRENT_ANSWERS, 1, 10_000),
  REQUEST_BODIES_TOTAL_BYTES: integer(
    DEFAULT_REQUEST_BODIES_TOTAL_BYTES,
    1_024,
    64 * 1024 * 1024 * 1024,
  ),
  ANSWER_BACKLOG_TOTAL_BYTES: integer(
    DEFAULT_ANSWER_BACKLOG_TOTAL_BYTES,
    1_024,
    64 * 1024 * 1024 * 1024,
  ),
  SHUTDOWN_TIMEOUT_MS: integer(DEFAULT_GRACE_MS, 0, 600_000),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .url('must be a URL such as redis://127.0.0.1:6379/0')
      .refine(
        (url) => /^rediss?:$/.test(new URL(url).protocol),
        'must be a redis:// or rediss:// URL',
      )
      .optional(),
  ),
  REDIS_CLUSTER_NODES: optionalText.pipe(
    z
      .string()
      .transform((text, context): ClusterSeeds => {
        try {
          return parseClusterSeeds(text);
        } catch (error) {
          context.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
          return z.NEVER;
        }
      })
      .optional(),
  ),
  REDIS_KEY_PREFIX: z.string().trim().min(1).max(100).default('music-gateway:'),
  REDIS_WAIT_REPLICAS: optionalInteger(0, 16),
  REDIS_WAIT_TIMEOUT_MS: integer(CLUSTER_REPLICA_WAIT.timeoutMs, 1, 60_000),
  BUDGET_FILE: z.string().trim().min(1).default('.gateway/budget.json'),
  CLIENT_BUDGET_SHARE: fraction(DEFAULT_CLIENT_BUDGET_SHARE),
  KEY_ACCEPTED_TTL_SECONDS: integer(DEFAULT_KEY_TTLS.acceptedTtlMs / 1000, 1, DAY_SECONDS),
  WORKERS: workerCount,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_CACHE_HITS: z.enum(['summary', 'each']).default('summary'),
  SIMULATOR_ARTISTS: integer(300, 1, 20_000),
  SIMULATOR_SEED: integer(20_261_121, 0, 2 ** 32 - 1),
  SIMULATOR_LATENCY_MS: integer(0, 0, 60_000),
  SIMULATOR_ROUGHNESS: flag(false),
});

export type Environment = z.infer<typeof environment>;

/** Every variable the schema reads (docs/configuration.md has a row for each). */
export const ENVIRONMENT_VARIABLES = Object.keys(
  environment.shape,
) as readonly (keyof Environment)[];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = environment.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    throw new ConfigError('Invalid configuration:\n  METRICS_PORT: must differ from PORT');
  }
  if (e.UPSTREAM_API_KEY !== undefined && e.UPSTREAM_URL === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  UPSTREAM_API_KEY: is set but UPSTREAM_URL is not (the embedded simulator has its own key)',
    );
  }
  const redisRefusal = refusedRedisCombination(e);
  if (redisRefusal !== undefined)
    throw new ConfigError(`Invalid configuration:\n  ${redisRefusal}`);
  const workers = workersOf(e);
  // The memory bounds are the machine's: each of the workers holds its share of each.
  const perWorker = (bound: number, least: number) => Math.max(least, Math.floor(bound / workers));
  return {
    host: e.HOST,
    port: e.PORT,
    metricsPort: e.METRICS_PORT,
    upstreamUrl: e.UPSTREAM_URL,
    upstreamApiKey: e.UPSTREAM_API_KEY,
    dailyLimit: e.UPSTREAM_DAILY_LIMIT,
    client: {
      connectTimeoutMs: e.UPSTREAM_CONNECT_TIMEOUT_MS,
      headersTimeoutMs: e.UPSTREAM_HEADERS_TIMEOUT_MS,
      bodyTimeoutMs: e.UPSTREAM_BODY_TIMEOUT_MS,
      maxConcurrency: e.UPSTREAM_MAX_CONCURRENCY,
      maxQueue: e.UPSTREAM_MAX_QUEUE,
      maxBodyBytes: e.UPSTREAM_MAX_BODY_BYTES,
    },
    deadlineMs: e.UPSTREAM_DEADLINE_MS,
    retries: e.UPSTREAM_RETRIES,
    unknownKeysPerMinute: e.PASS_THROUGH_NEW_KEYS_PER_MINUTE,
    resilience: {
      circuit: { failureThreshold: e.CIRCUIT_FAILURE_THRESHOLD, openMs: e.CIRCUIT_OPEN_MS },
      staleGraceMs: e.CACHE_STALE_GRACE_MS,
    },
    assumptions: {
      songsOfArtistLimit: e.UPSTREAM_SONGS_OF_ARTIST_LIMIT,
      rankingLimit: e.UPSTREAM_RANKING_LIMIT,
    },
    cache: {
      ttlMs: e.CACHE_TTL_SECONDS * 1000,
      notFoundTtlMs: e.CACHE_NOT_FOUND_TTL_SECONDS * 1000,
      retentionMs: e.CACHE_RETENTION_SECONDS * 1000,
      maxEntries: perWorker(e.CACHE_MAX_ENTRIES, 1),
      maxBytes: perWorker(e.CACHE_MAX_BYTES, MIN_CACHE_BYTES),
      responseMaxBytes: perWorker(e.RESPONSE_CACHE_MAX_BYTES, MIN_CACHE_BYTES),
    },
    refreshPollMs: e.REFRESH_POLL_SECONDS * 1000,
    compression: e.RESPONSE_COMPRESSION ? { minBytes: e.RESPONSE_COMPRESSION_MIN_BYTES } : false,
    budgetPlan: e.BUDGET_PLAN
      ? {
          headShare: e.BUDGET_HEAD_SHARE,
          burst: e.BUDGET_BURST_CALLS ?? defaultBurst(e.UPSTREAM_DAILY_LIMIT),
        }
      : undefined,
    protection: {
      maxUpstreamCost: e.MAX_UPSTREAM_COST,
      shape: {
        maxDepth: e.GRAPHQL_MAX_DEPTH,
        maxAliases: e.GRAPHQL_MAX_ALIASES,
        maxDirectives: e.GRAPHQL_MAX_DIRECTIVES,
        maxTokens: e.GRAPHQL_MAX_TOKENS,
        introspection: e.GRAPHQL_INTROSPECTION,
      },
      maxRequestBytes: e.GRAPHQL_MAX_REQUEST_BYTES,
      persistedOperations: {
        mode: e.PERSISTED_OPERATIONS,
        manifestPath: e.PERSISTED_OPERATIONS_MANIFEST,
      },
      httpCacheMaxAgeSeconds: e.HTTP_CACHE_MAX_AGE_SECONDS,
      // 0 requests: no rate limiting.
      rateLimit:
        e.RATE_LIMIT_REQUESTS === 0
          ? undefined
          : {
              requests: e.RATE_LIMIT_REQUESTS,
              windowSeconds: e.RATE_LIMIT_WINDOW_SECONDS,
              trustProxy: e.RATE_LIMIT_TRUST_PROXY,
            },
      subscriptionsPerClient: e.SUBSCRIPTIONS_PER_CLIENT,
      subscriberBacklogBytes: e.SUBSCRIBER_BACKLOG_BYTES,
    },
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    graphiql: e.GRAPHIQL,
    cacheHitLog: e.LOG_CACHE_HITS,
    memory: {
      concurrentAnswers: perWorker(e.CONCURRENT_ANSWERS, 1),
      requestBodiesBytes: perWorker(e.REQUEST_BODIES_TOTAL_BYTES, 1),
      answerBacklogBytes: perWorker(e.ANSWER_BACKLOG_TOTAL_BYTES, 1),
      subscriberBacklogTotalBytes: perWorker(e.SUBSCRIBER_BACKLOG_TOTAL_BYTES, 1),
    },
    scaleOut: {
      redisUrl: e.REDIS_URL,
      redisCluster: e.REDIS_CLUSTER_NODES,
      redisKeyPrefix: e.REDIS_KEY_PREFIX,
      redisDurability: durabilityOf(e),
      budgetFile: e.BUDGET_FILE,
      clientBudgetShare: e.CLIENT_BUDGET_SHARE,
      trustProxy: e.RATE_LIMIT_TRUST_PROXY,
      keyAcceptedTtlMs: e.KEY_ACCEPTED_TTL_SECONDS * 1000,
      workers,
    },
    logLevel: e.LOG_LEVEL,
    simulator: {
      artists: e.SIMULATOR_ARTISTS,
      seed: e.SIMULATOR_SEED,
      latencyMs: e.SIMULATOR_LATENCY_MS,
      roughness: e.SIMULATOR_ROUGHNESS,
    },
  };
}

/**
 * Gateway processes on this machine. `auto`: one per core the machine gives this process, as
 * its memory allows (worker-count.ts); the workers share their budget, flights and caches
 * through Redis when it is set, and through the primary that keeps them otherwise (src/machine/).
 */
function workersOf(e: Environment): number {
  return e.WORKERS === 'auto' ? autoWorkersHere() : e.WORKERS;
}

/** What the Redis variables may not say together, or undefined when they agree. */
function refusedRedisCombination(e: Environment): string | undefined {
  const clustered = e.REDIS_CLUSTER_NODES !== undefined;
  if (clustered && e.REDIS_URL !== undefined)
    return 'REDIS_CLUSTER_NODES: is set with REDIS_URL; set one of them (a cluster or one Redis)';
  // ioredis puts the prefix before every key, and a slot is decided by a key's first {…}: a brace
  // in the prefix would override the keys' own hash tags (the whole deployment in one slot, or
  // a ledger's keys in different slots).
  if (clustered && /[{}]/.test(e.REDIS_KEY_PREFIX))
    return 'REDIS_KEY_PREFIX: must not contain { or } with REDIS_CLUSTER_NODES (it would decide every key’s hash slot)';
  if (e.REDIS_WAIT_REPLICAS !== undefined && e.REDIS_URL === undefined && !clustered)
    return 'REDIS_WAIT_REPLICAS: is set but neither REDIS_URL nor REDIS_CLUSTER_NODES is';
  return undefined;
}

/** A replica's acknowledgement of each reservation on a cluster, none on one Redis, unless set. */
function durabilityOf(e: Environment): Durability {
  const replicas =
    e.REDIS_WAIT_REPLICAS ??
    (e.REDIS_CLUSTER_NODES === undefined ? NO_REPLICA_WAIT : CLUSTER_REPLICA_WAIT).replicas;
  return { replicas, timeoutMs: e.REDIS_WAIT_TIMEOUT_MS };
}
