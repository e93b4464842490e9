/**
 * The gateway, composed: the read path over the upstream (read-path.ts),
 * Yoga with the schema, the per-request context (request-context.ts) and the
 * ordered plugins (plugin-order.ts), and the node:http listener in front of
 * it (listener.ts). Returns the listener and the parts tests and main.ts
 * need.
 */
import { createYoga } from 'graphql-yoga';
import type { GatewayContext } from '../schema/context.js';
import { maskError } from '../schema/errors.js';
import { schema } from '../schema/index.js';
import { OperationEstimates } from '../schema/operation-estimates.js';
import { CORS_OPTIONS } from '../server/answer-parts/cors.js';
import { HitSummaries } from '../server/answer-parts/hit-summaries.js';
import { ReportedBudget } from '../server/answer-parts/reported-budget.js';
import { memoryBounds } from '../server/memory/memory-bounds.js';
import { DEFAULT_SUBSCRIBER_BACKLOG_BYTES } from '../server/memory/subscriber-backlog.js';
import { type MissLaneOptions, missLane } from '../server/miss-lane/miss-lane.js';
import { GetCaching } from '../server/plugins/use-http-caching.js';
import { METRICS_PATH } from '../server/plugins/use-metrics.js';
import { loadManifest } from '../server/plugins/use-persisted-operations.js';
import type { ServerContext } from '../server/server-context.js';
import { graphqlOverWebSocket } from '../server/websocket/graphql-ws-server.js';
import { withGraphQLPathOnly } from '../server/websocket/upgrade-path.js';
import { yogaListener } from '../server/yoga-listener.js';
import { yogaLogger } from '../server/yoga-logger.js';
import {
  DEFAULT_MANIFEST_PATH,
  DEFAULT_MAX_REQUEST_BYTES,
  DEFAULT_MAX_UPSTREAM_COST,
  DEFAULT_PERSISTED_OPERATIONS_MODE,
} from '../setting-defaults.js';
import { DEFAULT_ASSUMPTIONS } from '../upstream/endpoints.js';
import type { GatewayOptions } from './gateway-config.js';
import { gatewayListener } from './listener.js';
import { gatewayPlugins } from './plugin-order.js';
import { createReadPath } from './read-path.js';
import { requestContext } from './request-context.js';

export type { GatewayOptions } from './gateway-config.js';

const GRAPHQL_ENDPOINT = '/graphql';
const HEALTH_PATH = '/health';
const READINESS_PATH = '/ready';

export function createGateway(options: GatewayOptions) {
  const readPath = createReadPath(options);
  const { auth, stores, metrics } = readPath;
  const protection = options.protection ?? {};
  /** Whether X-Forwarded-For names the client: one answer for every per-client bound. */
  const trustProxy = options.stores?.trustProxy ?? protection.rateLimit?.trustProxy ?? false;
  const rateLimiter =
    auth.kind === 'server' && protection.rateLimit !== undefined
      ? stores.rateLimiter(protection.rateLimit)
      : undefined;
  const persisted = protection.persistedOperations ?? {};
  const persistedMode = persisted.mode ?? DEFAULT_PERSISTED_OPERATIONS_MODE;
  const bounds = memoryBounds(options.memory, metrics);
  // What answers report of the key's day: hits and Yoga's answers read the ledger through it.
  const reportedBudget = new ReportedBudget(stores.budget);
  let draining = false;

  // How GET answers are made cacheable: by Yoga's plugin and by the miss lane alike.
  const getCaching = new GetCaching({
    maxAgeSeconds: protection.httpCacheMaxAgeSeconds,
    perClient: auth.kind === 'pass-through',
    compressed: options.compression !== false,
    ...(options.now ? { now: options.now } : {}),
  });
  const maxUpstreamCost = protection.maxUpstreamCost ?? DEFAULT_MAX_UPSTREAM_COST;
  const context = requestContext({
    readPath,
    auth,
    assumptions: options.assumptions ?? DEFAULT_ASSUMPTIONS,
    maxUpstreamCost,
    estimates: new OperationEstimates(schema),
    backlogBytes: protection.subscriberBacklogBytes ?? DEFAULT_SUBSCRIBER_BACKLOG_BYTES,
    backlogTotal: bounds.subscriberBacklog,
    trustProxy,
    logger: options.logger,
  });

  const yoga = createYoga<ServerContext, GatewayContext>({
    schema,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    healthCheckEndpoint: HEALTH_PATH,
    landingPage: false,
    // The options a response-cache hit's CORS headers are computed under too (answer-parts/cors.ts).
    cors: CORS_OPTIONS,
    logging: yogaLogger(options.logger),
    maskedErrors: { maskError },
    // graphql-codegen's client preset sends trusted documents as `{ documentId }` (use-persisted-operations.ts).
    extraParamNames: ['documentId'],
    // No uploads in the schema: multipart bodies are refused with 415 (use-request-read-errors.ts).
    multipart: false,
    // GraphiQL's page is stored bytes, answered by the listener before Yoga (graphiql.ts).
    graphiql: false,
    context,
    plugins: gatewayPlugins({
      options,
      auth,
      stores,
      metrics,
      keys: stores.keys,
      reportedBudget,
      getCaching,
      rateLimiter,
      persisted: {
        mode: persistedMode,
        manifest:
          persisted.manifest ??
          loadManifest(
            persisted.manifestPath ?? DEFAULT_MANIFEST_PATH,
            persistedMode === 'allow-list',
          ),
      },
      trustProxy,
      readinessPath: READINESS_PATH,
      // Not ready while draining or without its Redis; an open circuit is reported but keeps the
      // gateway ready, since the cache still answers.
      readinessReport: () => {
        const redis = options.redis === undefined ? 'none' : options.redis.isUp() ? 'up' : 'down';
        return {
          ready: !draining && redis !== 'down',
          draining,
          redis,
          upstreamCircuit: stores.circuit.state,
        };
      },
    }),
  });

  const lane =
    options.missLane !== false && options.tracing === undefined
      ? missLane({
          schema,
          context,
          maxUpstreamCost,
          reported: reportedBudget,
          getCaching,
          maskError: yogaMaskError(yoga),
          metrics,
          logger: options.logger,
          graphqlEndpoint: GRAPHQL_ENDPOINT,
        })
      : undefined;
  // Hits summed up in a line a second per answer, unless each is to have its own line.
  const hitSummaries =
    options.cacheHitLog === 'each' ? undefined : new HitSummaries(options.logger);
  const handler = gatewayListener({
    options,
    lane,
    hitSummaries,
    readPath,
    yoga: yogaListener(yoga, options.logger),
    rateLimiter,
    graphqlEndpoint: GRAPHQL_ENDPOINT,
    otherPaths: [HEALTH_PATH, READINESS_PATH, METRICS_PATH],
    bounds,
    reportedBudget,
  });
  const sockets = graphqlOverWebSocket({
    relay: {
      fetch: (request, context) => yoga.fetch(request, context),
      graphqlEndpoint: GRAPHQL_ENDPOINT,
      // A socket's operations take turns at Yoga with the HTTP requests (memory-bounds.ts).
      turn: (gone, handedOver) => bounds.turns.takeFor(gone, handedOver),
    },
    auth,
    keys: stores.keys,
    rateLimiter,
    trustProxy,
    maxMessageBytes: protection.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
    logger: options.logger,
  });
  void readPath.refreshPoll?.start();

  return {
    yoga,
    /** The node:http listener: compression, the served paths, the response cache's fast path, then Yoga. */
    handler,
    /** node:http's `upgrade` listener: graphql-ws on the GraphQL endpoint, nothing elsewhere. */
    upgrade: withGraphQLPathOnly(GRAPHQL_ENDPOINT, sockets.upgrade, () => draining),
    /** Closes every WebSocket (1001: going away); its clients reconnect, to another replica. */
    closeSockets: () => sockets.close(),
    cache: stores.cache,
    budget: stores.budget,
    upstream: readPath.upstream,
    generation: readPath.generation,
    live: stores.live,
    refreshPoll: readPath.refreshPoll,
    preconnect: readPath.preconnect,
    metrics,
    authMode: auth.kind,
    /** Stop reporting ready (load balancers move away) before the server closes. */
    drain() {
      draining = true;
    },
    close: async () => {
      hitSummaries?.close();
      await sockets.close();
      await readPath.close();
      await options.redis?.close();
    },
  };
}

export type Gateway = ReturnType<typeof createGateway>;

/**
 * Yoga's own masking of a result's errors (its `maskError` option wrapped with its logging of
 * what it masks), so that the miss lane's errors are masked and logged exactly as Yoga's are.
 */
function yogaMaskError(yoga: object): MissLaneOptions['maskError'] {
  const mask = (yoga as { maskedErrorsOpts?: { maskError?: unknown } }).maskedErrorsOpts?.maskError;
  if (typeof mask !== 'function')
    throw new Error('graphql-yoga no longer exposes its error masking: the miss lane needs it');
  return mask as MissLaneOptions['maskError'];
}
