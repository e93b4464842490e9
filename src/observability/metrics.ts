/**
 * The gateway's own Prometheus metrics, in one registry per gateway (so
 * several gateways in one process, as in tests, never mix figures). The
 * upstream layer reaches them through `upstreamObserver` only; figures that
 * belong to a shared store (the day's budget) are read from it at scrape
 * time, so with a shared ledger every replica reports the same value.
 */
import { LRUCache } from 'lru-cache';
import {
  type Aggregator,
  Counter,
  collectDefaultMetrics,
  Gauge,
  Histogram,
  Registry,
} from 'prom-client';
import type { BudgetUsage } from '../economy/ledger.js';
import type { UpstreamObserver } from '../upstream/observer.js';
import { BoundedLabels } from './bounded-labels.js';

/** What the budget gauge reads; the ledger's `usage()` may answer now or later (a shared store). */
export interface BudgetSource {
  usage(keyId: string): BudgetUsage | Promise<BudgetUsage>;
}

export interface GatewayMetricsOptions {
  readonly budget: BudgetSource;
  /** The gateway's own key in server-key mode: its budget is reported from the start. */
  readonly serverKeyId?: string;
  /** Distinct keys whose budget is reported (pass-through mode), the most recent spenders. */
  readonly maxKeys?: number;
  /** Distinct client labels of the spend counter; later clients are counted as `other`. */
  readonly maxClients?: number;
}

/** Upstream answers take from a few ms (simulator) to the 15 s deadline. */
const UPSTREAM_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15];

let processRegistry: Registry | undefined;

/**
 * The process's own figures (CPU, memory, event loop, GC), collected once per process and
 * shown by every gateway's registry: prom-client's GC observer can never be disconnected, so
 * collecting them per gateway kept each closed gateway (caches included) alive for good.
 */
function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * A registry whose exposition may be the whole process group's: with WORKERS, a scrape reaches
 * one worker, which answers with every worker's figures added up (group-metrics.ts). What it
 * hands the group is its own (`getMetricsAsJSON`), never the group's again.
 */
export class GatewayRegistry extends Registry {
  #group: (() => Promise<string>) | undefined;

  /** From now on a scrape answers with `group()`. */
  answerWithGroup(group: () => Promise<string>): void {
    this.#group = group;
  }

  override metrics(): Promise<string> {
    return this.#group === undefined ? super.metrics() : this.#group();
  }
}

/** The label of a key in metrics and logs: a prefix of its hash, never the key. */
export const keyLabelOf = (keyId: string): string => keyId.slice(0, 8);

export class GatewayMetrics {
  readonly registry = new GatewayRegistry();
  readonly #spenders: LRUCache<string, string>;
  readonly #clients: BoundedLabels;

  readonly #upstreamRequests = new Counter({
    name: 'gateway_upstream_requests_total',
    help: 'HTTP requests sent to the upstream API, retries included, by resource and answer status (`error`: no answer)',
    labelNames: ['endpoint', 'status'] as const,
    registers: [this.registry],
  });

  readonly #upstreamDuration = new Histogram({
    name: 'gateway_upstream_request_duration_seconds',
    help: 'Time from sending an upstream request to its response headers (or failure), by resource',
    labelNames: ['endpoint'] as const,
    buckets: UPSTREAM_BUCKETS,
    registers: [this.registry],
  });

  readonly #budgetSpent = new Counter({
    name: 'gateway_upstream_budget_spent_total',
    help: 'Upstream calls (each one of the daily budget) spent for each client',
    labelNames: ['client'] as const,
    registers: [this.registry],
  });

  readonly #cacheHits = tallied(this.registry, {
    name: 'gateway_cache_hits_total',
    help: 'Reads answered by a fresh cache entry, by cache level',
  });

  readonly #cacheMisses = tallied(this.registry, {
    name: 'gateway_cache_misses_total',
    help: 'Reads a cache level could not answer with a fresh entry, by cache level',
  });

  readonly #singleFlightJoins = new Counter({
    name: 'gateway_single_flight_joins_total',
    help: 'Reads that shared an upstream call already in flight instead of making their own',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  readonly #staleServed = new Counter({
    name: 'gateway_stale_answers_total',
    help: 'Expired cache entries served because the upstream failed (stale-if-error)',
    labelNames: ['endpoint'] as const,
    registers: [this.registry],
  });

  readonly #subscriptionsDropped = new Counter({
    name: 'gateway_subscriptions_dropped_total',
    help: 'Subscriptions ended because their client fell more than SUBSCRIBER_BACKLOG_BYTES behind',
    registers: [this.registry],
  });

  constructor(options: GatewayMetricsOptions) {
    this.#spenders = new LRUCache({ max: options.maxKeys ?? 50 });
    this.#clients = new BoundedLabels(options.maxClients ?? 100);
    if (options.serverKeyId !== undefined)
      this.#spenders.set(keyLabelOf(options.serverKeyId), options.serverKeyId);
    const shared = processMetrics();
    for (const { name } of shared.getMetricsAsArray()) {
      const metric = shared.getSingleMetric(name);
      if (metric !== undefined) this.registry.registerMetric(metric);
    }
    const { budget } = options;
    const spenders = this.#spenders;
    // Read from the shared ledger: every worker of a group reports the same day, added up once.
    this.sampled(
      'gateway_upstream_budget_remaining',
      "Upstream calls left in the key's UTC day",
      ['key'],
      async (set) => {
        await Promise.all(
          [...spenders.entries()].map(async ([label, keyId]) =>
            set((await budget.usage(keyId)).remaining, { key: label }),
          ),
        );
      },
      'min',
    );
    this.sampled(
      'gateway_upstream_budget_limit',
      "The key's daily upstream call limit",
      ['key'],
      async (set) => {
        await Promise.all(
          [...spenders.entries()].map(async ([label, keyId]) =>
            set((await budget.usage(keyId)).dailyLimit, { key: label }),
          ),
        );
      },
      'max',
    );
  }

  /**
   * A gauge read when Prometheus scrapes: one line per figure that something
   * else already knows (calls in flight, a circuit breaker's state, open
   * subscriptions). `sample` sets the current values, and may be async. With WORKERS, the
   * workers' values are added up (`sum`) unless `aggregator` says otherwise: `max` or `min` for
   * a figure every worker reads from the same shared store.
   */
  sampled<L extends string>(
    name: string,
    help: string,
    labelNames: readonly L[],
    sample: (
      set: (value: number, labels?: Partial<Record<L, string>>) => void,
    ) => void | Promise<void>,
    aggregator: Aggregator = 'sum',
  ): void {
    new Gauge<L>({
      name,
      help,
      labelNames,
      aggregator,
      registers: [this.registry],
      async collect() {
        this.reset();
        await sample((value, labels) =>
          labels === undefined ? this.set(value) : this.set(labels, value),
        );
      },
    });
  }

  /** A GraphQL request spent `calls` of `keyId`'s budget for `client` (a bounded label). */
  budgetSpent(keyId: string, client: string, calls: number): void {
    if (calls <= 0) return;
    this.#spenders.set(keyLabelOf(keyId), keyId);
    this.#budgetSpent.inc({ client: this.#clients.label(client) }, calls);
  }

  /** A subscription was ended because its client stopped reading (subscriber-backlog.ts). */
  subscriptionDropped(): void {
    this.#subscriptionsDropped.inc();
  }

  readonly upstreamObserver: UpstreamObserver = {
    cacheLookup: (level, hit) => (hit ? this.#cacheHits : this.#cacheMisses)(level),
    singleFlightJoined: (resource) => this.#singleFlightJoins.inc({ endpoint: resource }),
    staleServed: (resource) => this.#staleServed.inc({ endpoint: resource }),
    requestSent: (resource) => {
      const stopTimer = this.#upstreamDuration.startTimer({ endpoint: resource });
      return (outcome) => {
        stopTimer();
        this.#upstreamRequests.inc({ endpoint: resource, status: String(outcome) });
      };
    },
  };

  /** The Prometheus text exposition of every metric of this gateway. */
  scrape(): Promise<string> {
    return this.registry.metrics();
  }
}

/**
 * A counter by cache level whose counts are kept as plain numbers and added to it when the
 * registry is read. A lookup is counted on every response-cache hit, where prom-client's own
 * `inc`, which works out its labels' key each time, was a share of the hit worth saving.
 */
function tallied(registry: Registry, { name, help }: { name: string; help: string }) {
  const counts = new Map<string, number>();
  new Counter({
    name,
    help,
    labelNames: ['level'] as const,
    registers: [registry],
    collect() {
      for (const [level, count] of counts) this.inc({ level }, count);
      counts.clear();
    },
  });
  return (level: string) => {
    counts.set(level, (counts.get(level) ?? 0) + 1);
  };
}
