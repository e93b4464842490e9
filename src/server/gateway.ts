/**
 * Wires the gateway together: upstream client, cache, budget, key registry,
 * the per-request context, and the Yoga plugins. Returns the Yoga instance
 * (a fetch handler and a Node request listener) and its parts, for tests.
 */
import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, useReadinessCheck } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ResponseCache } from '../cache/cache.js';
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
import { useClientKeyCheck } from './plugins/use-client-key-check.js';
import { useCostReport } from './plugins/use-cost-report.js';
import { useRequestLog } from './plugins/use-request-log.js';

export interface GatewayOptions {
  readonly upstreamUrl: string;
  /** The gateway's own key (server-key mode); undefined for pass-through mode. */
  readonly upstreamApiKey: string | undefined;
  readonly dailyLimit: number;
  readonly client: Omit<UpstreamClientOptions, 'baseUrl'>;
  readonly deadlineMs: number;
  readonly retries: number;
  readonly cache: {
    readonly ttlMs: number;
    readonly notFoundTtlMs: number;
    readonly staleIfErrorMs: number;
    readonly maxEntries: number;
    readonly maxBytes: number;
  };
  readonly logger: Logger;
  /** Variables for GraphiQL's example tabs, by operation name. */
  readonly exampleVariables?: Record<string, Record<string, unknown>>;
  /** Replaces the in-memory cache (tests use it to share or inspect one). */
  readonly responseCache?: ResponseCache;
  readonly now?: () => Date;
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

  const yoga = createYoga<Record<string, unknown>, GatewayContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: options.logger,
    maskedErrors: { maskError },
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
      useCostReport(),
      // After the cost report: a rejected key's response is replaced whole, report included.
      useClientKeyCheck(),
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
