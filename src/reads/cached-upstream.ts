/**
 * Every upstream read goes through here: the cross-request cache, the
 * single flight that lets concurrent requests (of this process, and of every
 * replica through FlightLocks) share one call, the daily budget, retries,
 * and stale-if-error. DataLoaders sit in front of it, one set per GraphQL
 * request.
 *
 * A read, in steps: the caller's key (an unknown pass-through key is proven
 * by one call first); the cache, and what a held entry that is not current
 * is good for (held-entries.ts); the call, shared (single-flight.ts) and let
 * out only when the circuit, the request's cap and the day allow it
 * (send-gate.ts); its answer made into an entry (entries.ts), or its failure
 * into what the reader gets (failure-triage.ts); and a held entry standing
 * in for an upstream that fails or is slow (grace.ts).
 */
import { LRUCache } from 'lru-cache';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import type { CircuitBreaker } from '../coordination/circuit-breaker.js';
import type { FlightLocks } from '../coordination/flight-locks.js';
import { KeyProofs, type Proof } from '../coordination/key-proofs.js';
import type { KeyRegistry } from '../coordination/key-registry.js';
import type { Allocator } from '../economy/allocator.js';
import type { BudgetLedger } from '../economy/ledger.js';
import type { Popularity } from '../economy/popularity.js';
import type { Purpose } from '../economy/spending-plan.js';
import type { GenerationView } from '../freshness/generation.js';
import type { UpstreamClient } from '../upstream/client.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError, upstreamTimedOut } from '../upstream/errors.js';
import { SILENT_OBSERVER, type UpstreamObserver } from '../upstream/observer.js';
import { type RetryPolicy, withRetries } from '../upstream/retry.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import type { Caller } from './caller.js';
import {
  type CachePolicy,
  entryFor,
  readBody,
  recordBytes,
  stampOf,
  totalKey,
  unwrap,
} from './entries.js';
import { clientKeyRefused, heldAnswers, notFoundOrThrow } from './failure-triage.js';
import { withinGrace } from './grace.js';
import {
  answerHeld,
  answerStale,
  currentUntil,
  heldPolicy,
  refreshAffordable,
  servable,
  standInOf,
} from './held-entries.js';
import { type StartedRefresh, sweepPopular } from './popular-sweep.js';
import { RequestStats } from './request-stats.js';
import { prepaidFromHold, sendGate, toldToCircuit } from './send-gate.js';
import { SingleFlight } from './single-flight.js';
import { OpenHolds } from './whole-request-hold.js';

export interface CachedUpstreamOptions {
  readonly client: UpstreamClient;
  readonly cache: ResponseCache;
  readonly budget: BudgetLedger;
  readonly keys: KeyRegistry;
  readonly locks: FlightLocks;
  readonly cachePolicy: CachePolicy;
  readonly retry: RetryPolicy;
  /** Longest time one read may take, retries included. */
  readonly deadlineMs: number;
  /** Where tolerated oddities of upstream bodies and contradicted assumptions are reported. */
  readonly notices: UpstreamNotices;
  /** The data generation (refresh poll); absent: answers are fresh for their TTL alone. */
  readonly generation?: GenerationView;
  /** Keeps calls from leaving while the upstream is down. */
  readonly circuit: CircuitBreaker;
  /** How long a read waits for a slow upstream before a stale entry answers instead. */
  readonly staleGraceMs: number;
  /** Told of cache, single-flight and stale decisions (metrics, traces). */
  readonly observer?: UpstreamObserver;
  /** The day's spending plan for the gateway's own key (issue 15); absent: calls as long as the day lasts. */
  readonly allocator?: Allocator;
  /** Counts every record asked for, plan or not (the response cache's hits count theirs too). */
  readonly popularity?: Popularity;
}

export class CachedUpstream {
  readonly #flights: SingleFlight;
  /** The requests this process has read, by key: what a refresh of a popular record re-reads. */
  readonly #known = new LRUCache<string, UpstreamRequest<unknown>>({ max: KNOWN_REQUESTS });

  /** Pass-through keys the gateway does not know: one read proves each, the others wait for its verdict. */
  readonly #proofs: KeyProofs;
  /** This process's requests holding calls together: a refused hold waits for one to settle. */
  readonly #holds = new OpenHolds();

  constructor(private readonly options: CachedUpstreamOptions) {
    this.#proofs = new KeyProofs({
      keys: options.keys,
      locks: options.locks,
      pollMs: PEER_POLL_MS,
      timedOut: () => upstreamTimedOut(),
    });
    this.#flights = new SingleFlight({
      locks: options.locks,
      cache: options.cache,
      deadlineMs: options.deadlineMs,
      pollMs: PEER_POLL_MS,
      observer: this.#observer,
      servable: (entry) => this.#servable(entry),
    });
  }

  get #observer(): UpstreamObserver {
    return this.options.observer ?? SILENT_OBSERVER;
  }

  /** Distinct upstream reads under way now, shared by however many requests wait on them. */
  get inFlight(): number {
    return this.#flights.size;
  }

  /** True when a fresh cached answer says the resource does not exist; never calls the upstream. */
  async knownMissing(request: UpstreamRequest<unknown>, caller: Caller): Promise<boolean> {
    const cached = await this.#trustedEntry(request.key, caller);
    return cached !== undefined && cached.outcome === 'not-found' && this.#servable(cached);
  }

  /**
   * The length of the list `request` is a page of, when a page of it read in
   * the current generation told it (kept in the shared cache, so every
   * replica knows it); undefined otherwise. Never calls the upstream.
   */
  async knownTotal(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    stats: RequestStats,
  ): Promise<number | undefined> {
    if (request.list === undefined) return undefined;
    const cached = await this.#trustedEntry(totalKey(request.list.key), caller);
    if (cached === undefined || !this.#servable(cached) || typeof cached.value !== 'number')
      return undefined;
    // An answer built on this length is no fresher than the page that told it.
    stats.answeredFrom(cached.freshUntil);
    return cached.value;
  }

  /**
   * The cached entry for `key`, if this caller may read the cache (a client
   * key the upstream accepted; a proof of it under way is waited for).
   */
  async #trustedEntry(key: string, caller: Caller): Promise<CacheEntry | undefined> {
    if (caller.mode === 'client' && (await this.#proofs.settled(caller.keyId)) !== 'accepted')
      return undefined;
    return this.options.cache.get(key);
  }

  async read<T>(request: UpstreamRequest<T>, caller: Caller, stats: RequestStats): Promise<T> {
    const proof = caller.mode === 'client' ? await this.#proofOf(caller, stats) : undefined;
    this.#known.set(request.key, request);
    stats.reads.add(request.key);
    const found = proof === undefined ? await this.options.cache.get(request.key) : undefined;
    // A record the upstream said it does not have is no view of a record: the plan never ranks it.
    // One not held at all is a first touch asked for, whether the plan then affords it or not.
    if (found?.outcome !== 'not-found')
      this.options.popularity?.record([request.key], found === undefined);
    const currentUntil = found && this.#currentUntil(found, request);
    if (found !== undefined && currentUntil !== undefined) {
      stats.cacheHits += 1;
      stats.answeredFrom(currentUntil);
      return unwrap<T>(found, request);
    }
    // A not-found answer is not held: past its TTL or its generation, the record is unknown again.
    const held = found?.outcome === 'not-found' ? undefined : found;
    if (held !== undefined) {
      const allocator = this.#planned(caller);
      const use = await heldPolicy(
        held,
        request.key,
        allocator && { allocator, keyId: caller.keyId },
        this.options.generation,
      );
      if (use !== 'refresh-first') {
        answerHeld(held, stats);
        if (use === 'serve-then-refresh' && !(await this.#revalidate(request, caller)))
          stats.revalidationDeferred = true;
        return unwrap<T>(held, request);
      }
    }
    // A held entry still here is one to refresh first. With the plan, that is a popular record
    // never to be shown more than one refresh old: a slow refresh is waited for (to the read's
    // deadline), and only a failure lets the held entry answer. Granted the usual grace, a
    // refresh slowed by a new generation's sweep (every replica's, hundreds of records at once)
    // showed a favourite two refreshes old.
    const graceMs =
      held !== undefined && this.#planned(caller) !== undefined
        ? Number.POSITIVE_INFINITY
        : this.options.staleGraceMs;

    const purpose: Purpose = held === undefined ? 'first-touch' : 'refresh';
    const flight =
      proof === undefined
        ? this.#flights.join(request, stats, (signal) =>
            this.#fetchAndStore(request, caller, stats, purpose, signal),
          )
        : // A proof is alone in its key by construction: it shares no flight, and it always ends.
          this.#fetchAndStore(request, caller, stats, 'first-touch').finally(() => proof.done());
    return this.#answer(request, caller, stats, flight, standInOf(held), graceMs);
  }

  /**
   * A client key must be proven good by one real call before it may read what other keys cached:
   * this read makes that call (its proof), or waits for the read that does and goes on with its
   * verdict (undefined: accepted).
   */
  async #proofOf(caller: Caller, stats: RequestStats): Promise<Proof | undefined> {
    const verdict = await this.#proofs.verdict(
      caller.keyId,
      AbortSignal.timeout(this.options.deadlineMs),
    );
    if (verdict === 'rejected') {
      stats.unauthenticated = true;
      throw new UpstreamError('UNAUTHENTICATED', 'Invalid or revoked API key');
    }
    return verdict === 'accepted' ? undefined : verdict;
  }

  /**
   * The call's answer; or, when the call fails or is slower than `graceMs`, the held entry that
   * may stand in for it.
   */
  async #answer<T>(
    request: UpstreamRequest<T>,
    caller: Caller,
    stats: RequestStats,
    flight: Promise<CacheEntry>,
    standIn: CacheEntry | undefined,
    graceMs: number,
  ): Promise<T> {
    try {
      // A slow upstream does not hold up an answer that a stale entry can give: past the grace,
      // the reader gets the stale entry and the call goes on, refreshing the cache when it lands.
      const entry = standIn === undefined ? await flight : await withinGrace(flight, graceMs);
      if (entry === undefined)
        return answerStale<T>(standIn as CacheEntry, request, stats, this.#observer);
      stats.answeredFrom(entry.freshUntil);
      return unwrap<T>(entry, request);
    } catch (error) {
      if (clientKeyRefused(error, caller)) stats.unauthenticated = true;
      if (standIn !== undefined && heldAnswers(error))
        return answerStale<T>(standIn, request, stats, this.#observer);
      throw error;
    }
  }

  /**
   * After a new generation: the sweep of the popular records this process has read
   * (popular-sweep.ts). Resolves once its refreshes have come back, with how many this process
   * started or found under way.
   */
  async refreshPopular(caller: Caller): Promise<number> {
    const planned = this.#planned(caller);
    if (planned === undefined) return 0;
    return sweepPopular(planned, caller.keyId, {
      known: (key) => this.#known.get(key),
      cache: this.options.cache,
      generation: this.options.generation,
      current: (entry, request) => this.#currentUntil(entry, request) !== undefined,
      refresh: (request) => this.#sweepRefresh(request, caller),
    });
  }

  /**
   * Starts the sweep's refresh of `request`. Its end comes wrapped: a promise returned bare would
   * hold the check's slot until the refresh is back.
   */
  async #sweepRefresh(request: UpstreamRequest<unknown>, caller: Caller): Promise<StartedRefresh> {
    if (!(await this.#revalidate(request, caller))) return undefined;
    return { done: this.#flights.refreshing(request.key) ?? Promise.resolve() };
  }

  /**
   * The refresh poll's read: always the upstream (never the cache), counted in
   * the budget like any call. `keep()` then stores the answer, stamped with
   * the generation current at that moment (the poll moves it first).
   */
  async poll<T>(
    request: UpstreamRequest<T>,
    caller: Caller,
    stats: RequestStats,
  ): Promise<{ value: T; keep(): Promise<void> }> {
    const entry = await this.#fetch(request, caller, stats, 'poll');
    return {
      value: unwrap<T>(entry, request),
      keep: () => this.#store(request, { ...entry, ...stampOf(this.options.generation) }),
    };
  }

  #servable(entry: CacheEntry): boolean {
    return servable(entry, this.options.generation);
  }

  #currentUntil(entry: CacheEntry, request: UpstreamRequest<unknown>): number | undefined {
    return currentUntil(entry, request, this.options.generation, this.options.cachePolicy.ttlMs);
  }

  /** The allocator, when the plan applies to this caller: the gateway's own key. */
  #planned(caller: Caller): Allocator | undefined {
    return caller.mode === 'server' ? this.options.allocator : undefined;
  }

  /**
   * One background refresh of an answer from an older generation: once per
   * process and once across replicas (single-flight.ts). With the plan, only
   * the head gets here. False when, without the plan, the budget is low: the
   * previous generation is served on.
   */
  async #revalidate(request: UpstreamRequest<unknown>, caller: Caller): Promise<boolean> {
    if (this.#flights.has(request.key)) return true;
    // The plan has its own share for refreshes; without it, the last part of the day is kept for reads nothing answers.
    if (
      this.#planned(caller) === undefined &&
      !(await refreshAffordable(this.options.budget, caller.keyId))
    )
      return false;
    this.#flights.refresh(request.key, (signal) =>
      this.#fetchAndStore(request, caller, new RequestStats(), 'refresh', signal),
    );
    return true;
  }

  async #fetchAndStore(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    stats: RequestStats,
    purpose: Purpose,
    signal = AbortSignal.timeout(this.options.deadlineMs),
  ): Promise<CacheEntry> {
    const entry = await this.#fetch(request, caller, stats, purpose, signal);
    await this.#store(request, entry);
    return entry;
  }

  /** Keeps an answer, and for a page of a list the list's length, read at the same time and as fresh. */
  async #store(request: UpstreamRequest<unknown>, entry: CacheEntry): Promise<void> {
    const { cache } = this.options;
    const list = request.list;
    if (entry.outcome === 'not-found') {
      // Not there upstream: whatever views it had were not of a record, and must not make it popular.
      await Promise.all([
        cache.set(request.key, entry),
        this.options.popularity?.forget(request.key),
      ]);
      return;
    }
    if (list === undefined) return cache.set(request.key, entry);
    const total = list.totalOf(entry.value);
    await Promise.all([
      cache.set(request.key, entry),
      cache.set(totalKey(list.key), { ...entry, value: total, bytes: String(total).length }),
    ]);
  }

  /** One upstream read (retries included) made into a cache entry: a record, or a not-found answer. */
  async #fetch(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    stats: RequestStats,
    purpose: Purpose,
    signal = AbortSignal.timeout(this.options.deadlineMs),
  ): Promise<CacheEntry> {
    const { client, budget, keys, cachePolicy, retry, deadlineMs, circuit, notices } = this.options;
    // The generation when the read starts: an answer that was on its way while a newer one was seen may predate it.
    const stamp = stampOf(this.options.generation);
    const planned = this.#planned(caller);
    const key = request.key;
    let gate: ReturnType<typeof sendGate> | undefined;
    try {
      const prepaidOn = await prepaidFromHold(
        { planned, caller, stats, purpose, key },
        this.#holds,
      );
      const opened = sendGate({
        circuit,
        budget,
        client,
        planned,
        caller,
        stats,
        purpose,
        key,
        ...(prepaidOn === undefined ? {} : { prepaidOn }),
      });
      gate = opened;
      const attempt = toldToCircuit(circuit, () =>
        client.get(key, caller.apiKey, signal, opened, request.resource),
      );
      const response = await withRetries(attempt, retry, performance.now() + deadlineMs, signal);
      if (caller.mode === 'client') await keys.markAccepted(caller.keyId);
      const value = readBody(request, response.body, notices);
      return entryFor('value', value, recordBytes(response.bytes), cachePolicy, stamp);
    } catch (error) {
      const message = await notFoundOrThrow(error, request, caller, this.options);
      return entryFor('not-found', message, message.length, cachePolicy, stamp);
    } finally {
      // Paid from the request's hold but never sent (the circuit, the cap): the hold has it back.
      const unused = gate?.unusedPrepaid();
      if (unused !== undefined) stats.hold?.giveBack(unused);
    }
  }
}

/** Requests remembered for refreshes of the head: far more than any head, a few MB at most. */
const KNOWN_REQUESTS = 20_000;

/** How often a process waiting for another replica's fetch (or key proof) looks for its answer. */
const PEER_POLL_MS = 25;
