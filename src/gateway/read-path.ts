/**
 * The gateway's side of the upstream: its client, the stores, the day's plan
 * (server-key mode with BUDGET_PLAN), the cached upstream every resolver
 * reads through, and the refresh poll that turns the upstream's daily
 * refresh into data generations. Built once per process; the per-request
 * context (request-context.ts) hands each request a loader over it.
 */
import { MemoryCache } from '../cache/memory-cache.js';
import { DEFAULT_CIRCUIT } from '../coordination/circuit-breaker.js';
import { Allocator } from '../economy/allocator.js';
import { SpendingPlan } from '../economy/spending-plan.js';
import { TodaysSweep } from '../economy/todays-sweep.js';
import { GenerationView, seenOn } from '../freshness/generation.js';
import { RefreshPoll } from '../live/refresh-poll.js';
import { GatewayMetrics } from '../observability/metrics.js';
import { traceObserver } from '../observability/trace-observer.js';
import { CachedUpstream } from '../reads/cached-upstream.js';
import { type Caller, serverCaller } from '../reads/caller.js';
import { DEFAULT_STALE_GRACE_MS } from '../reads/grace.js';
import type { AuthMode } from '../server/caller.js';
import { DEFAULT_RESPONSE_CACHE_MAX_BYTES } from '../server/response-cache/stored-response.js';
import { DEFAULT_CLIENT_BUDGET_SHARE } from '../setting-defaults.js';
import { UpstreamClient } from '../upstream/client.js';
import { observeAll } from '../upstream/observer.js';
import { UpstreamNotices } from '../upstream/upstream-notices.js';
import type { GatewayOptions } from './gateway-config.js';
import { createStores } from './stores.js';

/** Retries of a failed upstream read: exponential back-off from 100 ms, at most 2 s apart. */
const RETRY_DELAYS = { baseDelayMs: 100, maxDelayMs: 2_000 };

export type ReadPath = ReturnType<typeof createReadPath>;

export function createReadPath(options: GatewayOptions) {
  const auth: AuthMode =
    options.upstreamApiKey === undefined
      ? { kind: 'pass-through' }
      : { kind: 'server', apiKey: options.upstreamApiKey };
  const server: Caller | undefined = auth.kind === 'server' ? serverCaller(auth.apiKey) : undefined;

  // Metrics read the budget at scrape time, from whichever ledger the stores hold.
  const budgetOf = { usage: (keyId: string) => stores.budget.usage(keyId) };
  const metrics = new GatewayMetrics({ budget: budgetOf, serverKeyId: server?.keyId });
  // Read spans and their events only where traces are exported: otherwise each read would make
  // a span that records nothing, and each decision an event for no span.
  const traced = options.tracing !== undefined;
  const observer = traced
    ? observeAll(metrics.upstreamObserver, traceObserver)
    : metrics.upstreamObserver;
  const client = new UpstreamClient({ baseUrl: options.upstreamUrl, ...options.client, observer });
  const generation = new GenerationView(options.now);
  const stores = createStores({
    generation,
    redis: options.redis?.client,
    ...(options.redis === undefined ? {} : { durability: options.redis.durability }),
    ...(options.machine === undefined ? {} : { machine: options.machine }),
    cache: options.responseCache ?? new MemoryCache({ ...options.cache, observer }),
    answers: new MemoryCache({
      maxEntries: options.cache.maxEntries,
      maxBytes: options.cache.responseMaxBytes ?? DEFAULT_RESPONSE_CACHE_MAX_BYTES,
    }),
    budget: { dailyLimit: options.dailyLimit, ...(options.now ? { now: options.now } : {}) },
    circuit: options.resilience?.circuit ?? DEFAULT_CIRCUIT,
    channelPrefix: options.channelPrefix ?? '',
    logger: options.logger,
    ...options.stores,
  });
  const sweep = new TodaysSweep();
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
            sweptToday: (now) => sweep.of(now),
          }),
          stores.popularity,
          stores.budget,
          options.now,
        );
  const upstream = new CachedUpstream({
    client,
    cache: stores.cache,
    budget: stores.budget,
    keys: stores.keys,
    locks: stores.locks,
    cachePolicy: options.cache,
    retry: { maxAttempts: options.retries + 1, ...RETRY_DELAYS },
    deadlineMs: options.deadlineMs,
    notices: new UpstreamNotices(options.logger),
    observer,
    circuit: stores.circuit,
    staleGraceMs: options.resilience?.staleGraceMs ?? DEFAULT_STALE_GRACE_MS,
    generation,
    popularity: stores.popularity,
    ...(allocator === undefined ? {} : { allocator }),
  });
  const refreshPoll =
    server === undefined || options.refreshPollMs === undefined
      ? undefined
      : new RefreshPoll({
          intervalMs: options.refreshPollMs,
          upstream,
          caller: server,
          store: stores.generations,
          view: generation,
          feed: stores.live,
          lease: stores.pollLease,
          logger: options.logger,
          ...(options.now ? { now: options.now } : {}),
        });

  sampleReadPath();
  if (server !== undefined) {
    // At a new generation the server key's policy sweeps (the plan's: the popular records, most
    // asked first; once they are back, the day's refreshes since show the pace of those still to
    // come; the daily limit's sweeps nothing).
    const clock = options.now ?? (() => new Date());
    generation.onChange(async () => {
      try {
        await upstream.refreshPopular(server);
        const at = clock();
        if (!seenOn(generation.now(), at)) return;
        const { refreshed } = await stores.budget.spending(server.keyId);
        sweep.ended({ at, refreshed });
      } catch (error) {
        options.logger.warn(
          { error: (error as Error).message },
          'refreshing the popular records failed',
        );
      }
    });
  }

  return {
    auth,
    server,
    metrics,
    observer,
    generation,
    stores,
    upstream,
    refreshPoll,
    /** Whether each read of a request is a span (`upstream <resource>`). */
    traced,
    /** Connections to the upstream opened ahead of the first calls (no request sent). */
    preconnect: (count: number) => client.preconnect(count),
    async close() {
      await refreshPoll?.stop();
      await stores.popularity.close();
      await stores.live.close();
      await client.close();
    },
  };

  /** Gauges read at scrape time: the circuit, the reads under way, the day's calls by purpose. */
  function sampleReadPath(): void {
    metrics.sampled(
      'gateway_upstream_circuit_open',
      'Upstream circuit in this process: 1 open, 0.5 half-open, 0 closed',
      [],
      (set) =>
        set(stores.circuit.state === 'open' ? 1 : stores.circuit.state === 'half-open' ? 0.5 : 0),
      // A group of workers: the most open of their circuits.
      'max',
    );
    metrics.sampled(
      'gateway_upstream_in_flight',
      'Distinct upstream reads under way now',
      [],
      (set) => set(upstream.inFlight),
    );
    if (allocator === undefined || server === undefined) return;
    metrics.sampled(
      'gateway_upstream_budget_spent_by_purpose',
      "Today's upstream calls of the gateway's key by the plan's purpose",
      ['purpose'],
      async (set) => {
        const spent = await stores.budget.spending(server.keyId);
        set(spent.polled, { purpose: 'poll' });
        set(spent.refreshed, { purpose: 'refresh' });
        set(spent.paced, { purpose: 'first-touch' });
      },
      // The shared ledger's figures, the same on every worker of a group.
      'max',
    );
  }
}
