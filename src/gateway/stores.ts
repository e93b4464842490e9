/**
 * Every choice between memory and Redis, in one place: with Redis (one, or
 * a cluster: every store sends the same commands to either), the
 * deployment's replicas share each store; without it, the workers of one
 * machine share the stores their primary keeps (src/machine/), behind the
 * same in-process first levels as with Redis; a process alone keeps its own. The upstream answers' cache (Redis as L2 behind the in-process L1),
 * the response cache of whole answers (its own L1; in Redis, only answers
 * built from upstream reads, for at most an hour), the budget ledger (in
 * Redis, or in memory written through to a file), the key registry, the
 * single-flight leases, the data generation, the records' popularity, the
 * circuit, the refresh poll's lease, the live feed and the per-client
 * limiters.
 */
import type { Logger } from 'pino';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import { MachineCache } from '../cache/machine-cache.js';
import { MemoryCache } from '../cache/memory-cache.js';
import { RedisCache } from '../cache/redis-cache.js';
import { TwoLevelCache } from '../cache/two-level-cache.js';
import type { CircuitBreaker, CircuitOptions } from '../coordination/circuit-breaker.js';
import type { FlightLocks } from '../coordination/flight-locks.js';
import { DEFAULT_KEY_TTLS, type KeyRegistry } from '../coordination/key-registry.js';
import { LocalCircuitBreaker } from '../coordination/local-circuit-breaker.js';
import { MachineFlightLocks } from '../coordination/machine-flight-locks.js';
import { MachineKeyRegistry } from '../coordination/machine-key-registry.js';
import { MachinePollLease } from '../coordination/machine-poll-lease.js';
import { LocalFlightLocks } from '../coordination/memory-flight-locks.js';
import { MemoryKeyRegistry } from '../coordination/memory-key-registry.js';
import { LocalPollLease } from '../coordination/memory-poll-lease.js';
import type { PollLease } from '../coordination/poll-lease.js';
import { SharedCircuitBreaker } from '../coordination/redis-circuit-breaker.js';
import { RedisFlightLocks } from '../coordination/redis-flight-locks.js';
import { RedisKeyRegistry } from '../coordination/redis-key-registry.js';
import { RedisPollLease } from '../coordination/redis-poll-lease.js';
import type { BudgetLedger, BudgetOptions } from '../economy/ledger.js';
import { MachineBudgetLedger } from '../economy/machine-ledger.js';
import { MachinePopularity } from '../economy/machine-popularity.js';
import { MemoryBudgetLedger } from '../economy/memory-ledger.js';
import { MemoryPopularity } from '../economy/memory-popularity.js';
import type { Popularity } from '../economy/popularity.js';
import { RedisBudgetLedger } from '../economy/redis-ledger.js';
import { RedisPopularity } from '../economy/redis-popularity.js';
import {
  type GenerationStore,
  type GenerationView,
  isCurrentGeneration,
} from '../freshness/generation.js';
import { MachineGenerationStore } from '../freshness/machine-generation-store.js';
import { MemoryGenerationStore } from '../freshness/memory-generation-store.js';
import { RedisGenerationStore } from '../freshness/redis-generation-store.js';
import { createLiveFeed, type LiveFeed } from '../live/live-feed.js';
import type { PrimaryLink } from '../machine/primary-link.js';
import type { RedisClient } from '../redis/connection.js';
import type { Durability } from '../redis/durability.js';
import {
  type ClientRateLimiter,
  type ClientRateLimitOptions,
  createClientRateLimiter,
} from '../server/plugins/use-client-rate-limit.js';
import {
  isShared,
  SHARED_RESPONSE_RETENTION_MS,
} from '../server/response-cache/stored-response.js';
import { DEFAULT_CLIENT_BUDGET_SHARE } from '../setting-defaults.js';

export interface StoreOptions {
  /** Without Redis: where the day's budget is kept across restarts; absent: memory only (tests). */
  readonly budgetFile?: string;
  /** Largest part of the day one client may spend in server-key mode (default 0.5; 1: no cap). */
  readonly clientBudgetShare?: number;
  /** Clients are told apart by X-Forwarded-For (client-identity.ts); default: as the rate limit says. */
  readonly trustProxy?: boolean;
  /** How long an accepted pass-through key reads cached data before it is proven again. */
  readonly keyAcceptedTtlMs?: number;
}

interface StoreInputs extends StoreOptions {
  /** One Redis or a cluster (REDIS_URL or REDIS_CLUSTER_NODES); absent: every store in memory. */
  readonly redis: RedisClient | undefined;
  /** Without Redis, in a worker: the primary that keeps the machine's stores. */
  readonly machine?: PrimaryLink;
  /** Replicas that acknowledge a reservation before its call leaves (the ledger's); default none. */
  readonly durability?: Durability;
  /** The in-process cache: the only level without Redis, L1 with it (a custom one is used as given). */
  readonly cache: ResponseCache;
  /** The response cache's in-process level: its own bound, so that answers evict only answers. */
  readonly answers: MemoryCache;
  readonly budget: Omit<BudgetOptions, 'clientShare'>;
  /** The data generation: with Redis, an L1 entry of an older one is checked against L2. */
  readonly generation: GenerationView;
  readonly circuit: CircuitOptions;
  /** Prefix of the live feed's Redis channels (REDIS_KEY_PREFIX: channels are not keys). */
  readonly channelPrefix: string;
  readonly logger: Logger;
}

export interface Stores {
  readonly cache: ResponseCache;
  readonly answers: ResponseCache;
  readonly budget: BudgetLedger;
  readonly keys: KeyRegistry;
  readonly locks: FlightLocks;
  readonly generations: GenerationStore;
  readonly popularity: Popularity;
  readonly circuit: CircuitBreaker;
  readonly pollLease: PollLease;
  readonly live: LiveFeed;
  /** A per-client limiter counting in the stores' place (rate-limiter-flexible, memory or Redis). */
  rateLimiter(options: Omit<ClientRateLimitOptions, 'redis'>): ClientRateLimiter;
  /** Whether each client may spend only its share of the key's day (CLIENT_BUDGET_SHARE < 1). */
  readonly capsClients: boolean;
}

/** Keys of the machine's stored answers a worker remembers: far more than its answer cache holds. */
const MACHINE_ANSWER_KEYS = 100_000;
/**
 * Keys of the machine's stored records a worker remembers: far more than a day's upstream calls
 * store. Past them it asks for every record (cache/machine-cache.ts).
 */
const MACHINE_RECORD_KEYS = 200_000;

export function createStores(inputs: StoreInputs): Stores {
  const { redis, budget, clientBudgetShare, keyAcceptedTtlMs, logger } = inputs;
  const ledgerOptions: BudgetOptions = {
    ...budget,
    clientShare: clientBudgetShare ?? DEFAULT_CLIENT_BUDGET_SHARE,
  };
  const keyTtls = {
    ...DEFAULT_KEY_TTLS,
    ...(keyAcceptedTtlMs === undefined ? {} : { acceptedTtlMs: keyAcceptedTtlMs }),
  };
  const localCircuit = new LocalCircuitBreaker(inputs.circuit, logger);
  const { machine } = inputs;
  const shared = {
    live: createLiveFeed(redis, inputs.channelPrefix, logger, machine),
    rateLimiter: (options: Omit<ClientRateLimitOptions, 'redis'>) =>
      createClientRateLimiter({
        ...options,
        ...(redis === undefined ? { machine: machine !== undefined } : { redis }),
      }),
    capsClients: ledgerOptions.clientShare < 1,
  };
  const isCurrent = (entry: CacheEntry) =>
    isCurrentGeneration(entry.generation, inputs.generation.now());
  // This process's first levels in front of the shared ones. A record of an older generation
  // asks the second level, where another process may have refreshed it; the data generation is
  // part of an answer's key, so a first-level answer is current as long as it is fresh.
  const inFrontOf = (records: ResponseCache, answers: ResponseCache) => ({
    cache:
      inputs.cache instanceof MemoryCache
        ? new TwoLevelCache(inputs.cache, records, { isCurrent })
        : inputs.cache,
    answers: new TwoLevelCache(inputs.answers, answers, { shared: isShared }),
  });
  if (redis === undefined && machine !== undefined) {
    return {
      ...shared,
      ...inFrontOf(
        new MachineCache(machine, 'cache', {
          announced: { maxKeys: MACHINE_RECORD_KEYS, beyond: 'ask-for-every-key' },
        }),
        new MachineCache(machine, 'answers', {
          announced: { maxKeys: MACHINE_ANSWER_KEYS, beyond: 'forget-oldest' },
        }),
      ),
      budget: new MachineBudgetLedger(machine, budget.now),
      keys: new MachineKeyRegistry(machine),
      locks: new MachineFlightLocks(machine),
      generations: new MachineGenerationStore(machine),
      popularity: new MachinePopularity(machine),
      // Each worker's own: an upstream that fails is seen failing by each within a few calls.
      circuit: localCircuit,
      pollLease: new MachinePollLease(machine),
    };
  }
  if (redis === undefined) {
    return {
      ...shared,
      cache: inputs.cache,
      answers: inputs.answers,
      budget: new MemoryBudgetLedger(ledgerOptions, inputs.budgetFile),
      keys: new MemoryKeyRegistry(keyTtls),
      locks: new LocalFlightLocks(),
      generations: new MemoryGenerationStore(),
      popularity: new MemoryPopularity(budget.now),
      circuit: localCircuit,
      pollLease: new LocalPollLease(),
    };
  }
  return {
    ...shared,
    ...inFrontOf(
      new RedisCache(redis),
      new RedisCache(redis, {
        namespace: 'response',
        maxRetentionMs: SHARED_RESPONSE_RETENTION_MS,
      }),
    ),
    budget: new RedisBudgetLedger(redis, {
      ...ledgerOptions,
      ...(inputs.durability === undefined ? {} : { durability: inputs.durability }),
    }),
    keys: new RedisKeyRegistry(redis, keyTtls),
    locks: new RedisFlightLocks(redis),
    generations: new RedisGenerationStore(redis),
    popularity: new RedisPopularity(redis, budget.now),
    circuit: new SharedCircuitBreaker(localCircuit, redis, inputs.circuit),
    pollLease: new RedisPollLease(redis),
  };
}
