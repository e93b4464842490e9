/**
 * Wires the gateway together: upstream client, cache, budget, key registry,
 * the per-request context, and the Yoga plugins. Returns the Yoga instance
 * (a fetch handler and a Node request listener) and its parts, for tests.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, useReadinessCheck } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ResponseCache } from '../cache/cache.js';
import type { GatewayConfig } from '../config.js';
import { MemoryCache } from '../cache/memory-cache.js';
import { RequestLoader } from '../loaders/request-loader.js';
import type { GatewayContext } from '../schema/context.js';
import { maskError } from '../schema/errors.js';
import { schema } from '../schema/index.js';
import { BudgetLedger } from '../upstream/budget.js';
import { CachedUpstream, type Caller } from '../upstream/cached-upstream.js';
import { UpstreamClient, type UpstreamClientOptions } from '../upstream/client.js';
import { KeyRegistry } from '../upstream/key-registry.js';
import { RequestStats } from '../upstream/request-stats.js';
import { type AuthMode, callerFor, serverCaller } from './caller.js';
import { exampleGraphiQL } from './examples.js';
import { yogaLogger } from './yoga-logger.js';
import { useClientKeyCheck } from './plugins/use-client-key-check.js';
import { useCostReport } from './plugins/use-cost-report.js';
import { type ClientRateLimitOptions, useClientRateLimit } from './plugins/use-client-rate-limit.js';
import { useHttpCaching } from './plugins/use-http-caching.js';
import {
  DEFAULT_MANIFEST_PATH,
  type PersistedOperationsMode,
  loadManifest,
  usePersistedOperations,
} from './plugins/use-persisted-operations.js';
import { useRequestLog } from './plugins/use-request-log.js';
import { useRequestSizeLimit } from './plugins/use-request-size-limit.js';
import { type ShapeLimitOptions, useShapeLimits } from './plugins/use-shape-limits.js';
import { useUpstreamCostLimit } from './plugins/use-upstream-cost-limit.js';

/** Protections of issue 4 (docs/protection.md); every field has a default. */
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
}

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
  /** Replaces the in-memory cache (tests use it to share or inspect one). */
  readonly responseCache?: ResponseCache;
  readonly now?: () => Date;
  readonly protection?: ProtectionOptions;
}

export function createGateway(options: GatewayOptions) {
  const auth: AuthMode =
    options.upstreamApiKey === undefined ? { kind: 'pass-through' } : { kind: 'server', apiKey: options.upstreamApiKey };
  const server: Caller | undefined = auth.kind === 'server' ? serverCaller(auth.apiKey) : undefined;

  const client = new UpstreamClient({ baseUrl: options.upstreamUrl, ...options.client });
  const cache = options.responseCache ?? new MemoryCache(options.cache);
  const budget = new BudgetLedger(options.dailyLimit, options.now);
  const keys = new KeyRegistry();
  const upstream = new CachedUpstream({
    client,
    cache,
    budget,
    keys,
    cachePolicy: options.cache,
    retry: { maxAttempts: options.retries + 1, baseDelayMs: 100, maxDelayMs: 2_000 },
    deadlineMs: options.deadlineMs,
  });
  let draining = false;

  const protection = options.protection ?? {};
  const persisted = protection.persistedOperations ?? {};
  const persistedMode = persisted.mode ?? 'apq';
  const manifest =
    persisted.manifest ?? loadManifest(persisted.manifestPath ?? DEFAULT_MANIFEST_PATH, persistedMode === 'allow-list');

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: yogaLogger(options.logger),
    maskedErrors: { maskError },
    // graphql-codegen's client preset sends trusted documents as `{ documentId }` (use-persisted-operations.ts).
    extraParamNames: ['documentId'],
    // The GraphiQL bundle is served inline: the page works offline and behind firewalls, no CDN involved.
    renderGraphiQL,
    graphiql: {
      title: 'Music Streaming Statistics GraphQL',
      ...exampleGraphiQL(options.exampleVariables),
      ...(auth.kind === 'pass-through'
        ? { defaultHeaders: JSON.stringify({ Authorization: 'Bearer <your API key>' }) }
        : {}),
    },
    context: ({ request }) => {
      const caller = callerFor(request, auth, server);
      const stats = new RequestStats();
      return { request, caller, stats, budget, loader: new RequestLoader(upstream, caller, stats) };
    },
    plugins: [
      useReadinessCheck({ endpoint: '/ready', check: () => !draining }),
      // Cheap refusals first: who is asking too often, how big the body is, which document it names.
      ...(auth.kind === 'server' && protection.rateLimit !== undefined ? [useClientRateLimit(protection.rateLimit)] : []),
      useRequestSizeLimit({ maxBytes: protection.maxRequestBytes }),
      usePersistedOperations({ mode: persistedMode, manifest }),
      ...useShapeLimits(protection.shape),
      useHttpCaching({
        maxAgeSeconds: protection.httpCacheMaxAgeSeconds,
        perClient: auth.kind === 'pass-through',
        ...(options.now ? { now: options.now } : {}),
      }),
      useCostReport(),
      // After the cost report: a rejected key's response is replaced whole, report included.
      useClientKeyCheck(),
      // After both: a refused operation still gets its cost report (with the estimate), and never runs.
      useUpstreamCostLimit({ maxCost: protection.maxUpstreamCost }),
      useRequestLog(options.logger),
    ],
  });

  return {
    yoga,
    cache,
    budget,
    upstream,
    authMode: auth.kind,
    /** Stop reporting ready (load balancers move away) before the server closes. */
    drain() {
      draining = true;
    },
    close: () => client.close(),
  };
}

export type Gateway = ReturnType<typeof createGateway>;
