/**
 * Wires the gateway together: upstream client, cache, budget, key registry,
 * the per-request context, and the Yoga plugins. Returns the Yoga instance
 * (a fetch handler and a Node request listener) and its parts, for tests.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, useReadinessCheck } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ResponseCache } from '../cache/cache.js';
import { MemoryCache } from '../cache/memory-cache.js';
import { type CircuitOptions, DEFAULT_CIRCUIT } from '../coordination/circuit-breaker.js';
import { LocalCircuitBreaker } from '../coordination/local-circuit-breaker.js';
import { LocalPollLease } from '../coordination/memory-poll-lease.js';
import { SharedCircuitBreaker } from '../coordination/redis-circuit-breaker.js';
import { RedisPollLease } from '../coordination/redis-poll-lease.js';
import { Allocator } from '../economy/allocator.js';
import { SpendingPlan } from '../economy/spending-plan.js';
import { GenerationView } from '../freshness/generation.js';
import { createLiveFeed } from '../live/live-feed.js';
import { RefreshPoll } from '../live/refresh-poll.js';
import { GatewayMetrics } from '../observability/metrics.js';
import { traceObserver } from '../observability/trace-observer.js';
import { CachedUpstream } from '../reads/cached-upstream.js';
import { type Caller, serverCaller } from '../reads/caller.js';
import { DEFAULT_STALE_GRACE_MS } from '../reads/grace.js';
import { RequestLoader } from '../reads/request-loader.js';
import { RequestStats } from '../reads/request-stats.js';
import type { SharedRedis } from '../redis/connection.js';
import type { GatewayContext } from '../schema/context.js';
import { maskError } from '../schema/errors.js';
import { schema } from '../schema/index.js';
import { UpstreamClient, type UpstreamClientOptions } from '../upstream/client.js';
import { DEFAULT_ASSUMPTIONS, type UpstreamAssumptions } from '../upstream/endpoints.js';
import { observeAll } from '../upstream/observer.js';
import { UpstreamNotices } from '../upstream/upstream-notices.js';
import { CORS_OPTIONS } from './answer/cors.js';
import { type AuthMode, callerFor } from './caller.js';
import { clientOf } from './client-identity.js';
import { DEFAULT_COMPRESSION_MIN_BYTES, withCompressedResponses } from './compressed-responses.js';
import { exampleGraphiQL } from './examples.js';
import type { BudgetPlanConfig, GatewayConfig, ProtectionOptions } from './gateway-config.js';
import { withServedPathsOnly } from './graphql-path.js';
import { useClientKeyCheck } from './plugins/use-client-key-check.js';
import { createClientRateLimiter, useClientRateLimit } from './plugins/use-client-rate-limit.js';
import { useCostReport } from './plugins/use-cost-report.js';
import { generationReport, useFreshnessReport } from './plugins/use-freshness-report.js';
import { DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS, useHttpCaching } from './plugins/use-http-caching.js';
import { METRICS_PATH, useMetrics } from './plugins/use-metrics.js';
import { useNestingLimit } from './plugins/use-nesting-limit.js';
import {
  DEFAULT_MANIFEST_PATH,
  DEFAULT_PERSISTED_OPERATIONS_MODE,
  loadManifest,
  usePersistedOperations,
} from './plugins/use-persisted-operations.js';
import { useQueryOperationsOnly } from './plugins/use-query-operations-only.js';
import { useRequestErrorCodes } from './plugins/use-request-error-codes.js';
import { useRequestLog } from './plugins/use-request-log.js';
import { useRequestReadErrors } from './plugins/use-request-read-errors.js';
import {
  DEFAULT_MAX_REQUEST_BYTES,
  useRequestSizeLimit,
} from './plugins/use-request-size-limit.js';
import { useSettledReads } from './plugins/use-settled-reads.js';
import { useShapeLimits } from './plugins/use-shape-limits.js';
import { useStreamArguments } from './plugins/use-stream-arguments.js';
import { useSubscriptionLimit } from './plugins/use-subscription-limit.js';
import { useTracing } from './plugins/use-tracing.js';
import {
  DEFAULT_MAX_UPSTREAM_COST,
  useUpstreamCostLimit,
} from './plugins/use-upstream-cost-limit.js';
import { withResponseCache } from './response-cache/fast-path.js';
import { useResponseCacheRecorder } from './response-cache/recorder.js';
import { DEFAULT_RESPONSE_CACHE_MAX_BYTES } from './response-cache/stored-response.js';
import { createStores, DEFAULT_CLIENT_BUDGET_SHARE, type StoreOptions } from './stores.js';
import {
  boundedBacklog,
  DEFAULT_SUBSCRIBER_BACKLOG_BYTES,
  responseOutlet,
} from './subscriber-backlog.js';
import { yogaLogger } from './yoga-logger.js';

export interface GatewayOptions {
  readonly upstreamUrl: string;
  /** The gateway's own key (server-key mode); undefined for pass-through mode. */
  readonly upstreamApiKey: string | undefined;
  readonly dailyLimit: number;
  readonly client: Omit<UpstreamClientOptions, 'baseUrl'>;
  readonly deadlineMs: number;
  readonly retries: number;
  readonly cache: GatewayConfig['cache'];
  readonly logger: Logger;
  /** Variables for GraphiQL's example tabs, by operation name. */
  readonly exampleVariables?: Record<string, Record<string, unknown>>;
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
  /** Shared stores of issue 9; absent: every store in this process. */
  readonly redis?: SharedRedis;
  readonly stores?: StoreOptions;
  /** Trace requests with the registered OpenTelemetry tracer provider (observability/tracing.ts). */
  readonly tracing?: boolean;
  /** What to send where the upstream description is silent (default: DEFAULT_ASSUMPTIONS). */
  readonly assumptions?: UpstreamAssumptions;
  /** Issue 11: how often the deployment polls for an upstream refresh (server-key mode); absent: no poll. */
  readonly refreshPollMs?: number;
  /** Prefix of the live feed's Redis channels (REDIS_KEY_PREFIX). */
  readonly channelPrefix?: string;
  /** Issue 15: how the gateway's own key spends its day; absent: every call the day allows, first come first served. */
  readonly budgetPlan?: BudgetPlanConfig;
}

export const DEFAULT_UNKNOWN_KEYS_PER_MINUTE = 10;
const GRAPHQL_ENDPOINT = '/graphql';
const HEALTH_PATH = '/health';
const READINESS_PATH = '/ready';

export function createGateway(options: GatewayOptions) {
  const auth: AuthMode =
    options.upstreamApiKey === undefined
      ? { kind: 'pass-through' }
      : { kind: 'server', apiKey: options.upstreamApiKey };
  const server: Caller | undefined = auth.kind === 'server' ? serverCaller(auth.apiKey) : undefined;

  // Metrics read the budget at scrape time, from whichever ledger the stores hold.
  const budgetOf = { usage: (keyId: string) => stores.budget.usage(keyId) };
  const metrics = new GatewayMetrics({ budget: budgetOf, serverKeyId: server?.keyId });
  const observer = observeAll(metrics.upstreamObserver, traceObserver);
  const client = new UpstreamClient({ baseUrl: options.upstreamUrl, ...options.client, observer });
  const generation = new GenerationView();
  const stores = createStores({
    generation,
    redis: options.redis?.client,
    cache: options.responseCache ?? new MemoryCache({ ...options.cache, observer }),
    answers: new MemoryCache({
      maxEntries: options.cache.maxEntries,
      maxBytes: options.cache.responseMaxBytes ?? DEFAULT_RESPONSE_CACHE_MAX_BYTES,
    }),
    budget: { dailyLimit: options.dailyLimit, ...(options.now ? { now: options.now } : {}) },
    ...options.stores,
  });
  const { cache, answers, budget, keys, locks, generations, popularity } = stores;
  const allocator =
    server === undefined || options.budgetPlan === undefined
      ? undefined
      : new Allocator(
          new SpendingPlan({
            dailyLimit: options.dailyLimit,
            pollIntervalMs: options.refreshPollMs,
            ...options.budgetPlan,
            // The client's share of the day caps its share of the first touches paced so far too.
            clientShare: options.stores?.clientBudgetShare ?? DEFAULT_CLIENT_BUDGET_SHARE,
          }),
          popularity,
          budget,
          options.now,
        );
  const circuitOptions = options.resilience?.circuit ?? DEFAULT_CIRCUIT;
  const localCircuit = new LocalCircuitBreaker(circuitOptions, options.logger);
  const circuit = options.redis
    ? new SharedCircuitBreaker(localCircuit, options.redis.client, circuitOptions)
    : localCircuit;
  const upstream = new CachedUpstream({
    client,
    cache,
    budget,
    keys,
    locks,
    cachePolicy: options.cache,
    retry: { maxAttempts: options.retries + 1, baseDelayMs: 100, maxDelayMs: 2_000 },
    deadlineMs: options.deadlineMs,
    notices: new UpstreamNotices(options.logger),
    observer,
    circuit,
    staleGraceMs: options.resilience?.staleGraceMs ?? DEFAULT_STALE_GRACE_MS,
    generation,
    popularity,
    ...(allocator === undefined ? {} : { allocator }),
  });
  metrics.sampled(
    'gateway_upstream_circuit_open',
    'Upstream circuit in this process: 1 open, 0.5 half-open, 0 closed',
    [],
    (set) => set(circuit.state === 'open' ? 1 : circuit.state === 'half-open' ? 0.5 : 0),
  );
  metrics.sampled(
    'gateway_upstream_in_flight',
    'Distinct upstream reads under way now',
    [],
    (set) => set(upstream.inFlight),
  );
  if (allocator !== undefined && server !== undefined) {
    metrics.sampled(
      'gateway_upstream_budget_spent_by_purpose',
      "Today's upstream calls of the gateway's key by the plan's purpose (issue 15)",
      ['purpose'],
      async (set) => {
        const spent = await budget.spending(server.keyId);
        set(spent.polled, { purpose: 'poll' });
        set(spent.refreshed, { purpose: 'refresh' });
        set(spent.paced, { purpose: 'first-touch' });
      },
    );
    // The head is refreshed as soon as a new generation is known, most asked first.
    generation.onChange(() => {
      upstream
        .refreshHead(server)
        .catch((error: unknown) =>
          options.logger.warn({ error: (error as Error).message }, 'refreshing the head failed'),
        );
    });
  }
  const live = createLiveFeed(options.redis?.client, options.channelPrefix ?? '', options.logger);
  const refreshPoll =
    server === undefined || options.refreshPollMs === undefined
      ? undefined
      : new RefreshPoll({
          intervalMs: options.refreshPollMs,
          upstream,
          caller: server,
          store: generations,
          view: generation,
          feed: live,
          lease:
            options.redis === undefined
              ? new LocalPollLease()
              : new RedisPollLease(options.redis.client),
          logger: options.logger,
          ...(options.now ? { now: options.now } : {}),
        });
  void refreshPoll?.start();
  const assumptions = options.assumptions ?? DEFAULT_ASSUMPTIONS;
  let draining = false;

  const protection = options.protection ?? {};
  const backlogBytes = protection.subscriberBacklogBytes ?? DEFAULT_SUBSCRIBER_BACKLOG_BYTES;

  /** Whether X-Forwarded-For names the client: one answer for every per-client bound. */
  const trustProxy = options.stores?.trustProxy ?? protection.rateLimit?.trustProxy ?? false;
  const rateLimiter =
    auth.kind === 'server' && protection.rateLimit !== undefined
      ? createClientRateLimiter({
          ...protection.rateLimit,
          ...(options.redis ? { redis: options.redis.client } : {}),
        })
      : undefined;
  const persisted = protection.persistedOperations ?? {};
  const persistedMode = persisted.mode ?? DEFAULT_PERSISTED_OPERATIONS_MODE;
  const manifest =
    persisted.manifest ??
    loadManifest(persisted.manifestPath ?? DEFAULT_MANIFEST_PATH, persistedMode === 'allow-list');

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    healthCheckEndpoint: HEALTH_PATH,
    landingPage: false,
    // The options a response-cache hit's CORS headers are computed under too (answer/cors.ts).
    cors: CORS_OPTIONS,
    logging: yogaLogger(options.logger),
    maskedErrors: { maskError },
    // graphql-codegen's client preset sends trusted documents as `{ documentId }` (use-persisted-operations.ts).
    extraParamNames: ['documentId'],
    // No uploads in the schema: multipart bodies are refused with 415 (use-request-read-errors.ts).
    multipart: false,
    // The GraphiQL bundle is served inline: the page works offline and behind firewalls, no CDN involved.
    renderGraphiQL,
    graphiql: {
      title: 'Music Streaming Statistics GraphQL',
      ...exampleGraphiQL(options.exampleVariables),
      ...(auth.kind === 'pass-through'
        ? { defaultHeaders: JSON.stringify({ Authorization: 'Bearer <your API key>' }) }
        : {}),
    },
    context: (initial) => {
      const { request } = initial;
      const { res } = initial as { req?: IncomingMessage; res?: ServerResponse };
      const caller = withClientIdentity(callerFor(request, auth, server), request, initial);
      // The estimate refuses costly operations early; this cap bounds what the data makes of the rest.
      const stats = new RequestStats(protection.maxUpstreamCost ?? DEFAULT_MAX_UPSTREAM_COST);
      const requestContext = {
        request,
        caller,
        stats,
        budget,
        assumptions,
        live,
        generation,
        loader: new RequestLoader(upstream, caller, stats, options.logger),
        /** A subscription runs for hours: each event gets a fresh loader and call cap, so links read today's cache. */
        renewForEvent() {
          const eventStats = new RequestStats(
            protection.maxUpstreamCost ?? DEFAULT_MAX_UPSTREAM_COST,
          );
          Object.assign(requestContext, {
            stats: eventStats,
            loader: new RequestLoader(upstream, caller, eventStats, options.logger),
          });
        },
        boundedBacklog: <T>(events: AsyncIterableIterator<T>) =>
          boundedBacklog(
            events,
            backlogBytes,
            responseOutlet(res, (bytes) => {
              metrics.subscriptionDropped();
              options.logger.warn(
                {
                  client: clientOf(request, initial as { req?: IncomingMessage }, trustProxy),
                  behindBytes: bytes,
                  maxBytes: backlogBytes,
                },
                'subscription ended: its client stopped reading',
              );
            }),
          ),
      };
      return requestContext;
    },
    plugins: [
      ...(options.tracing ? useTracing() : []),
      useReadinessCheck({
        endpoint: READINESS_PATH,
        // Not ready while draining or without its Redis; an open circuit is reported but keeps the
        // gateway ready, since the cache still answers.
        check: () => {
          const redis = options.redis === undefined ? 'none' : options.redis.isUp() ? 'up' : 'down';
          const ready = !draining && redis !== 'down';
          return Response.json(
            { ready, draining, redis, upstreamCircuit: circuit.state },
            { status: ready ? 200 : 503 },
          );
        },
      }),
      // First of the hooks that read what a request cost: every read it started has settled.
      useSettledReads(),
      ...useMetrics(metrics),
      // Cheap refusals first: who is asking too often, how big the body is, which document it names.
      ...(rateLimiter !== undefined ? [useClientRateLimit(rateLimiter)] : []),
      useRequestSizeLimit({ maxBytes: protection.maxRequestBytes }),
      useRequestReadErrors(),
      // Before persisted operations, so a document too deeply nested to parse is never registered.
      useNestingLimit(protection.shape?.maxNesting),
      usePersistedOperations({ mode: persistedMode, manifest }),
      ...useShapeLimits(protection.shape),
      useQueryOperationsOnly(),
      useSubscriptionLimit({
        perClient: protection.subscriptionsPerClient,
        trustProxy,
      }),
      // @defer/@stream: the slow parts of a page arrive as multipart/mixed (or SSE) incremental payloads.
      useDeferStream(),
      useRequestErrorCodes(),
      useHttpCaching({
        maxAgeSeconds: protection.httpCacheMaxAgeSeconds,
        perClient: auth.kind === 'pass-through',
        compressed: options.compression !== false,
        ...(options.now ? { now: options.now } : {}),
      }),
      useCostReport(),
      useFreshnessReport(),
      useResponseCacheRecorder(),
      // After the cost report: a rejected key's response is replaced whole, report included.
      useClientKeyCheck({
        keys,
        ...(auth.kind === 'pass-through'
          ? {
              unknownKeys: createClientRateLimiter({
                requests: options.unknownKeysPerMinute ?? DEFAULT_UNKNOWN_KEYS_PER_MINUTE,
                windowSeconds: 60,
                trustProxy,
                keyPrefix: 'new-keys',
                ...(options.redis ? { redis: options.redis.client } : {}),
              }),
            }
          : {}),
      }),
      // After both: a refused operation still gets its cost report (with the estimate), and never runs.
      useStreamArguments(),
      useUpstreamCostLimit({ maxCost: protection.maxUpstreamCost }),
      useRequestLog(options.logger),
    ],
  });

  // The listener merges extra server context (the response cache's slot) into Yoga's; its type only shows two parameters.
  const listener = yoga.requestListener as (
    req: IncomingMessage,
    res: ServerResponse,
    context: object,
  ) => unknown;
  const yogaHandler = (req: IncomingMessage, res: ServerResponse, context: object) =>
    listener(req, res, context);
  /** The smallest answer compressed for a client that accepts it; undefined: none is. */
  const compressFrom =
    options.compression === false
      ? undefined
      : (options.compression?.minBytes ?? DEFAULT_COMPRESSION_MIN_BYTES);
  const answering =
    options.answerCache === false
      ? (req: IncomingMessage, res: ServerResponse) => void yogaHandler(req, res, {})
      : withResponseCache(yogaHandler, {
          graphqlEndpoint: GRAPHQL_ENDPOINT,
          cache: answers,
          auth,
          keys,
          budget,
          logger: options.logger,
          maxRequestBytes: protection.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
          maxTtlMs: options.cache.ttlMs,
          observer,
          httpCacheMaxAgeSeconds:
            protection.httpCacheMaxAgeSeconds ?? DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS,
          // Issue 11: a new data generation is a new key; answers read before any poll belong to generation 0.
          generation: () => String(generation.now()?.id ?? 0),
          freshness: () => {
            const current = generation.now();
            return current === undefined ? undefined : generationReport(current);
          },
          ...(rateLimiter !== undefined ? { rateLimiter } : {}),
          ...(options.now ? { now: options.now } : {}),
          popularity,
          ...(compressFrom === undefined ? {} : { compressFrom }),
        });
  const served = withServedPathsOnly(
    GRAPHQL_ENDPOINT,
    [HEALTH_PATH, READINESS_PATH, METRICS_PATH],
    answering,
    options.logger,
  );
  const handler =
    compressFrom === undefined ? served : withCompressedResponses(served, compressFrom);

  return {
    yoga,
    /** The node:http listener: compression, the served paths, the response cache's fast path, then Yoga. */
    handler,
    cache,
    budget,
    upstream,
    generation,
    live,
    refreshPoll,
    metrics,
    authMode: auth.kind,
    /** Stop reporting ready (load balancers move away) before the server closes. */
    drain() {
      draining = true;
    },
    close: async () => {
      await refreshPoll?.stop();
      await popularity.close();
      await live.close();
      await client.close();
      await options.redis?.close();
    },
  };

  /** In server-key mode, who the call is for: each client may spend only its share of the key's day. */
  function withClientIdentity(caller: Caller, request: Request, context: object): Caller {
    if (caller.mode !== 'server' || !stores.capsClients) return caller;
    return { ...caller, clientId: clientOf(request, context, trustProxy) };
  }
}

export type Gateway = ReturnType<typeof createGateway>;
