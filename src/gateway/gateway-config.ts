/**
 * What a gateway is built from, declared once: GatewayOptions holds every
 * setting createGateway takes; GatewayConfig is what config.ts reads from
 * the environment, those same settings (each one given) and what the
 * process needs around the gateway (its address, the simulator, Redis by
 * URL, workers). Kept in the composition root, so that nothing below it
 * imports the environment parser.
 */

import type { LevelWithSilent, Logger } from 'pino';
import type { ResponseCache } from '../cache/cache.js';
import type { CircuitOptions } from '../coordination/circuit-breaker.js';
import type { PrimaryLink } from '../machine/primary-link.js';
import type { ClusterSeeds } from '../redis/cluster-nodes.js';
import type { SharedRedis } from '../redis/connection.js';
import type { Durability } from '../redis/durability.js';
import type { MemoryOptions } from '../server/memory/memory-bounds.js';
import type { ClientRateLimitOptions } from '../server/plugins/use-client-rate-limit.js';
import type { PersistedOperationsMode } from '../server/plugins/use-persisted-operations.js';
import type { ShapeLimitOptions } from '../server/plugins/use-shape-limits.js';
import type { useTracing } from '../server/plugins/use-tracing.js';
import type { UpstreamClientOptions } from '../upstream/client.js';
import type { UpstreamAssumptions } from '../upstream/endpoints.js';
import type { StoreOptions } from './stores.js';

/** What createGateway is built from: a GatewayConfig turned into parts (main.ts), or a test's own. */
export interface GatewayOptions {
  readonly upstreamUrl: string;
  /** The gateway's own key: present, server-key mode; absent, pass-through mode. */
  readonly upstreamApiKey: string | undefined;
  readonly dailyLimit: number;
  readonly client: Omit<UpstreamClientOptions, 'baseUrl'>;
  readonly deadlineMs: number;
  readonly retries: number;
  readonly cache: {
    readonly ttlMs: number;
    readonly notFoundTtlMs: number;
    readonly retentionMs: number;
    readonly maxEntries: number;
    readonly maxBytes: number;
    /**
     * The response cache's own bound (stored answers never share the upstream answers' LRU);
     * absent: DEFAULT_RESPONSE_CACHE_MAX_BYTES.
     */
    readonly responseMaxBytes?: number;
  };
  readonly logger: Logger;
  /**
   * Response-cache hits in the request log: `summary` (default), a line a second per stored
   * answer, key and status with its count; `each`, a line per hit.
   */
  readonly cacheHitLog?: 'summary' | 'each';
  /** Variables for GraphiQL's example tabs, by operation name. */
  readonly exampleVariables?: Record<string, Record<string, unknown>>;
  /** GraphiQL's page at the endpoint for browsers (graphiql/graphiql.ts); default true. */
  readonly graphiql?: boolean;
  /** Bounds on what the process holds for requests in progress and slow clients. */
  readonly memory?: MemoryOptions;
  /** Replaces the upstream answers' in-memory cache (not the response cache of whole answers). */
  readonly responseCache?: ResponseCache;
  readonly now?: () => Date;
  readonly protection?: ProtectionOptions;
  /** Pass-through mode: keys never seen before that one client may have checked upstream per minute (default 10). */
  readonly unknownKeysPerMinute?: number;
  /** How the gateway rides out a failing upstream. */
  readonly resilience?: { readonly circuit?: CircuitOptions; readonly staleGraceMs?: number };
  /** Answers compressed for clients that accept it, from `minBytes` (default 1024); false: never. */
  readonly compression?: false | { readonly minBytes?: number };
  /** Repeated operations answered from stored bytes (response-cache/); default true. */
  readonly answerCache?: boolean;
  /**
   * Misses of operations Yoga has run compiled answered beside Yoga (server/miss-lane/); default
   * true, with the response cache. Off while tracing: a request's spans are Yoga's plugins'.
   */
  readonly missLane?: boolean;
  /** The stores replicas share; absent: every store in this process (or the machine's primary). */
  readonly redis?: SharedRedis;
  /** Without Redis, in a worker of several: the primary that keeps the machine's stores. */
  readonly machine?: PrimaryLink;
  readonly stores?: StoreOptions;
  /**
   * Trace requests with the registered OpenTelemetry tracer provider (observability/tracing.ts):
   * use-tracing.ts's plugins, imported only by a process that exports traces.
   */
  readonly tracing?: ReturnType<typeof useTracing>;
  /** What to send where the upstream description is silent (default: DEFAULT_ASSUMPTIONS). */
  readonly assumptions?: UpstreamAssumptions;
  /** How often the deployment polls for the upstream's daily refresh (server-key mode); absent: no poll. */
  readonly refreshPollMs?: number;
  /** Prefix of the live feed's Redis channels (REDIS_KEY_PREFIX). */
  readonly channelPrefix?: string;
  /** How the gateway's own key spends its day; absent: every call the day allows, first come first served. */
  readonly budgetPlan?: BudgetPlanConfig;
}

/** The settings of GatewayOptions that config.ts always gives; the others are parts main.ts makes. */
type FromEnvironment =
  | 'dailyLimit'
  | 'client'
  | 'deadlineMs'
  | 'retries'
  | 'cache'
  | 'assumptions'
  | 'unknownKeysPerMinute'
  | 'resilience'
  | 'protection'
  | 'compression'
  | 'refreshPollMs'
  | 'graphiql'
  | 'memory'
  | 'cacheHitLog';

/** The settings `K` of `T`, each one given. */
type Given<T, K extends keyof T> = { readonly [P in K]-?: Exclude<T[P], undefined> };

/** The process's configuration, as config.ts reads it from the environment. */
export interface GatewayConfig
  extends Given<GatewayOptions, FromEnvironment>,
    Pick<GatewayOptions, 'upstreamApiKey' | 'budgetPlan'> {
  readonly host: string;
  readonly port: number;
  /** A second port serving only `/metrics`; absent: `/metrics` on the gateway port only. */
  readonly metricsPort: number | undefined;
  /** Absent: run the embedded simulator and use its key (server-key mode). */
  readonly upstreamUrl: string | undefined;
  /** How long in-flight requests get to finish on SIGTERM/SIGINT before their connections are closed. */
  readonly shutdownTimeoutMs: number;
  readonly scaleOut: ScaleOutConfig;
  readonly logLevel: LevelWithSilent;
  readonly simulator: {
    readonly artists: number;
    readonly seed: number;
    readonly latencyMs: number;
    readonly roughness: boolean;
  };
}

/** The spending plan's settings (economy/spending-plan.ts). */
export interface BudgetPlanConfig {
  readonly headShare: number;
  readonly burst: number;
}

/** What replicas share, and what a single process keeps on disk. */
export interface ScaleOutConfig {
  /** Absent (and no `redisCluster`): everything stays in this process (and the budget in `budgetFile`). */
  readonly redisUrl: string | undefined;
  /** A Redis Cluster's seed nodes instead of one Redis (REDIS_CLUSTER_NODES). */
  readonly redisCluster: ClusterSeeds | undefined;
  readonly redisKeyPrefix: string;
  /** Replicas that acknowledge each reservation before its call leaves (REDIS_WAIT_*). */
  readonly redisDurability: Durability;
  /** Used only without Redis. */
  readonly budgetFile: string;
  readonly clientBudgetShare: number;
  /** Whether X-Forwarded-For names the client (RATE_LIMIT_TRUST_PROXY), for its budget share too. */
  readonly trustProxy: boolean;
  readonly keyAcceptedTtlMs: number;
  readonly workers: number;
}

/** The protections of docs/protection.md; every field has a default. */
export interface ProtectionOptions {
  /** Worst-case upstream calls allowed per operation (default 100). */
  readonly maxUpstreamCost?: number;
  readonly shape?: ShapeLimitOptions;
  /** Largest request body accepted (default 64 KiB). */
  readonly maxRequestBytes?: number;
  readonly persistedOperations?: {
    readonly mode?: PersistedOperationsMode;
    /** Read at start; default `examples/generated/persisted-documents.json`. */
    readonly manifestPath?: string;
    /** Given inline instead of read from `manifestPath` (tests). */
    readonly manifest?: Readonly<Record<string, string>>;
  };
  /** Longest `max-age` of cacheable GET answers (default 3600). */
  readonly httpCacheMaxAgeSeconds?: number;
  /** Per-client rate limit in server-key mode; absent: none. */
  readonly rateLimit?: ClientRateLimitOptions;
  /** Subscriptions one client may hold open at once on this replica (default 10). */
  readonly subscriptionsPerClient?: number;
  /** Bytes one subscriber may fall behind before its subscription is ended (default 1 MiB). */
  readonly subscriberBacklogBytes?: number;
}
