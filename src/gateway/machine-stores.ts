/**
 * The stores a primary keeps for its workers when there is no Redis
 * (WORKERS > 1): the same memory stores a process alone keeps, once for the
 * machine, so its workers spend one budget, make one flight per resource and
 * share one cache of records and one of answers. Each worker keeps its own
 * first levels in front of these, as replicas do in front of Redis; the
 * machine's bounds apply here whole, and each worker's first level holds its
 * share of them.
 */
import { RateLimiterClusterMaster } from 'rate-limiter-flexible';
import { MemoryCache } from '../cache/memory-cache.js';
import { DEFAULT_KEY_TTLS } from '../coordination/key-registry.js';
import { MemoryLeases } from '../coordination/machine-flight-locks.js';
import { MemoryKeyRegistry } from '../coordination/memory-key-registry.js';
import { LocalPollLease } from '../coordination/memory-poll-lease.js';
import type { HeardRateLimit } from '../economy/machine-ledger.js';
import { MemoryBudgetLedger } from '../economy/memory-ledger.js';
import { MemoryPopularity } from '../economy/memory-popularity.js';
import { MemoryGenerationStore } from '../freshness/memory-generation-store.js';
import type { StoreName } from '../machine/messages.js';
import { type HostedStores, hostStores, type Workers } from '../machine/store-host.js';
import { DEFAULT_RESPONSE_CACHE_MAX_BYTES } from '../server/response-cache/stored-response.js';
import { UpstreamError } from '../upstream/errors.js';
import type { GatewayConfig } from './gateway-config.js';

/** The ledger as the primary keeps it: a worker's 429 arrives as what the ledger reads of it. */
export class HostedLedger extends MemoryBudgetLedger {
  rateLimitedAs(keyId: string, heard: HeardRateLimit): void {
    this.rateLimited(keyId, new UpstreamError('RATE_LIMITED', heard.message, heard));
  }
}

export interface MachineStores {
  close(): Promise<void>;
}

export function hostMachineStores(config: GatewayConfig, workers?: Workers): MachineStores {
  const { stores, close } = machineStoreSet(config);
  hostStores(stores, workers, ANNOUNCED);
  // Constructed for its side effect: it answers the workers' rate limiters (rate-limiter-flexible).
  new RateLimiterClusterMaster();
  return { close };
}

/** The stores whose every `set` the workers are told of (store-host.ts). */
export const ANNOUNCED: ReadonlySet<StoreName> = new Set(['cache', 'answers']);

/** The machine's stores, bounded as configured, their budget written to `config`'s budget file. */
export function machineStoreSet(config: GatewayConfig): {
  readonly stores: HostedStores;
  close(): Promise<void>;
} {
  const { scaleOut, cache } = config;
  // The configured bounds are the machine's: config.ts gave each worker its share of them.
  const machineBound = (share: number) => share * scaleOut.workers;
  const popularity = new MemoryPopularity();
  const stores: HostedStores = {
    cache: new MemoryCache({
      maxEntries: machineBound(cache.maxEntries),
      maxBytes: machineBound(cache.maxBytes),
    }),
    answers: new MemoryCache({
      maxEntries: machineBound(cache.maxEntries),
      maxBytes: machineBound(cache.responseMaxBytes ?? DEFAULT_RESPONSE_CACHE_MAX_BYTES),
    }),
    budget: new HostedLedger(
      { dailyLimit: config.dailyLimit, clientShare: scaleOut.clientBudgetShare },
      scaleOut.budgetFile,
    ),
    keys: new MemoryKeyRegistry({
      ...DEFAULT_KEY_TTLS,
      acceptedTtlMs: scaleOut.keyAcceptedTtlMs,
    }),
    leases: new MemoryLeases(),
    generations: new MemoryGenerationStore(),
    popularity,
    pollLease: new LocalPollLease(),
  };
  return { stores, close: () => popularity.close() };
}
