/**
 * Every upstream read goes through here: the cross-request cache, the
 * single flight that lets concurrent requests (of this process, and of every
 * replica through FlightLocks) share one call, the daily budget, retries,
 * and stale answers. DataLoaders sit in front of it, one set per GraphQL
 * request.
 *
 * A read, in steps: the caller's key (an unknown pass-through key is proven
 * by one call first); the cached entry's state (entry-state.ts); the one
 * action the caller's policy gives for that state, the record's place and
 * the upstream's condition (read-policy.ts, read-table.ts); then that
 * action: an answer from what is held, a refresh behind it, or a call,
 * shared (single-flight.ts), let out only when the circuit, the request's
 * cap and the day allow it (send-gate.ts), and made into an entry
 * (entries.ts) or into what the reader gets (failure-triage.ts).
 */
import { LRUCache } from 'lru-cache';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import type { CircuitBreaker } from '../coordination/circuit-breaker.js';
import type { FlightLocks } from '../coordination/flight-locks.js';
import { KeyProofs, type Proof, proven } from '../coordination/key-proofs.js';
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
import type { RetryPolicy } from '../upstream/retry.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import { CachedFacts } from './cached-facts.js';
import type { Caller } from './caller.js';
import { type CachePolicy, stampOf, unwrap } from './entries.js';
import { type EntryState, entryState, isCurrent } from './entry-state.js';
import { clientKeyRefused, heldAnswers } from './failure-triage.js';
import { withinGrace } from './grace.js';
import { answerBehind, answerCurrent, answerStale } from './held-answers.js';
import type { StartedRefresh } from './popular-sweep.js';
import { DailyLimitPolicy, PlanPolicy, type ReadPolicy } from './read-policy.js';
import { type Action, lookUp, settledAction } from './read-table.js';
import type { RequestReport } from './request-report.js';
import { backgroundReads, type RequestReads } from './request-spending.js';
import { SingleFlight } from './single-flight.js';
import { type Call, UpstreamCalls } from './upstream-calls.js';
import { type Condition, conditionOf } from './upstream-condition.js';

export interface CachedUpstreamOptions {
  readonly client: UpstreamClient;
  readonly cache: ResponseCache;
  readonly budget: BudgetLedger;
  readonly keys: KeyRegistry;
  readonly locks: FlightLocks;
  readonly cachePolicy: CachePolicy;
  readonly retry: RetryPolicy;
  /** Longest time one read may take, retries and a wait for its key's proof included. */
  readonly deadlineMs: number;
  /** Where tolerated oddities of upstream bodies and contradicted assumptions are reported. */
  readonly notices: UpstreamNotices;
  /** The data generation (refresh poll); absent: answers are fresh for their TTL alone. */
  readonly generation?: GenerationView;
  /** Keeps calls from leaving while the upstream is down. */
  readonly circuit: CircuitBreaker;
  /** Longest a request waits for refreshes when held entries could answer it (CACHE_STALE_GRACE_MS). */
  readonly staleGraceMs: number;
  /** Told of cache, single-flight and stale decisions (metrics, traces). */
  readonly observer?: UpstreamObserver;
  /** The day's spending plan for the gateway's own key; absent: calls as long as the day lasts. */
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
  readonly #calls: UpstreamCalls;
  readonly #facts: CachedFacts;
  readonly #dailyLimit: ReadPolicy;
  /** The gateway's own key's policy: the plan when there is one. */
  readonly #serverPolicy: ReadPolicy;

  constructor(private readonly options: CachedUpstreamOptions) {
    this.#proofs = new KeyProofs({
      keys: options.keys,
      locks: options.locks,
      pollMs: PEER_POLL_MS,
      timedOut: () => upstreamTimedOut(),
      upstreamFailing: () => this.#condition() === 'failing',
      retryAfterMs: options.deadlineMs,
    });
    this.#flights = new SingleFlight({
      locks: options.locks,
      cache: options.cache,
      deadlineMs: options.deadlineMs,
      pollMs: PEER_POLL_MS,
      observer: this.#observer,
      current: (entry) => isCurrent(entry, options.generation),
    });
    this.#calls = new UpstreamCalls(options);
    this.#facts = new CachedFacts(Object.assign({}, options, { proofs: this.#proofs }));
    this.#dailyLimit = new DailyLimitPolicy(options.budget);
    this.#serverPolicy =
      options.allocator === undefined ? this.#dailyLimit : new PlanPolicy(options.allocator);
  }

  get #observer(): UpstreamObserver {
    return this.options.observer ?? SILENT_OBSERVER;
  }

  /** Distinct upstream reads under way now, shared by however many requests wait on them. */
  get inFlight(): number {
    return this.#flights.size;
  }

  /** True when a fresh cached answer says the resource does not exist; never calls the upstream. */
  knownMissing(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    reads: RequestReads,
  ): Promise<boolean> {
    return this.#facts.missing(request, caller, reads);
  }

  /** The length of the list `request` is a page of, when a current page told it; never calls. */
  knownTotal(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    reads: RequestReads,
  ): Promise<number | undefined> {
    return this.#facts.total(request, caller, reads);
  }

  /** `read`'s answer when certain now (no proof to wait for, held here as current, the table's `answer`), counted once taken. */
  peek<T>(request: UpstreamRequest<T>, caller: Caller, { report }: RequestReads) {
    if (caller.mode === 'client' && !report.keyAccepted && !this.#proofs.acceptedNow(caller.keyId))
      return undefined;
    const found = this.options.cache.peek?.(request.key);
    const state = this.#stateOf(found?.outcome === 'value' ? found : undefined, request);
    const table = this.#policyFor(caller).table;
    if (state.kind !== 'current' || settledAction(table, 'current', this.#condition()) !== 'answer')
      return undefined;
    return {
      answer: () => {
        this.options.cache.peeked?.(request.key);
        this.#noteRead(request, report, state.entry);
        return answerCurrent<T>(state.entry, state.until, request, report);
      },
    };
  }

  async read<T>(request: UpstreamRequest<T>, caller: Caller, reads: RequestReads): Promise<T> {
    const { report } = reads;
    // One deadline for a client key's whole read: a wait for the key's proof spends it too.
    const deadline =
      caller.mode === 'client' ? AbortSignal.timeout(this.options.deadlineMs) : undefined;
    const proof = deadline && (await this.#proofOf(caller, reads, deadline));
    const found = proof === undefined ? await this.options.cache.get(request.key) : undefined;
    this.#noteRead(request, report, found);
    const state = this.#stateOf(found, request);
    // The request's grace runs from its first read that a held entry could answer, whatever the
    // lookups its decision takes.
    if (state.kind === 'behind' || state.kind === 'outdated')
      reads.spending.graceLeft(this.options.staleGraceMs);
    const policy = this.#policyFor(caller);
    let deferred = false;
    const action = await lookUp(policy.table, state.kind, this.#condition(), {
      place: () => policy.place(request.key, caller),
      allowance: async () => {
        const allowance = await policy.allowance(caller);
        deferred = allowance === 'reserve';
        return allowance;
      },
    });
    return this.#perform(action, state, request, caller, reads, proof, deferred, deadline);
  }

  /** Does what the read table said for a read of `request` whose entry is in `state`. */
  async #perform<T>(
    action: Action,
    state: EntryState,
    request: UpstreamRequest<T>,
    caller: Caller,
    reads: RequestReads,
    proof: Proof | undefined,
    deferred: boolean,
    deadline: AbortSignal | undefined,
  ): Promise<T> {
    const { report, spending } = reads;
    switch (action) {
      case 'answer':
        if (state.kind !== 'current') break;
        return answerCurrent<T>(state.entry, state.until, request, report);
      case 'answer-held':
      case 'answer-held-refresh-behind': {
        if (state.kind !== 'behind' && state.kind !== 'outdated') break;
        if (action === 'answer-held-refresh-behind') this.#refreshBehind(request, caller);
        else if (deferred) report.revalidationDeferred = true;
        if (state.kind === 'behind') return answerBehind<T>(state.entry, request, report);
        report.cacheHits += 1;
        return answerStale<T>(state.entry, request, report, this.#observer);
      }
      case 'refresh-first': {
        if (state.kind !== 'behind' && state.kind !== 'outdated') break;
        const flight = this.#flights.join(request, report, (signal) =>
          this.#calls.fetchAndStore(
            Object.assign(this.#call(request, caller, reads, 'refresh'), { signal }),
          ),
        );
        const waitMs = spending.graceLeft(this.options.staleGraceMs);
        return this.#answer(request, caller, reads, flight, state.entry, waitMs);
      }
      case 'call': {
        const purpose: Purpose = 'first-touch';
        const flight =
          proof === undefined
            ? this.#flights.join(request, report, (signal) =>
                this.#calls.fetchAndStore(
                  Object.assign(this.#call(request, caller, reads, purpose), { signal }),
                ),
              )
            : // A proof is alone in its key by construction: it shares no flight, and it always ends.
              proven(
                proof,
                this.#calls.fetchAndStore(
                  Object.assign(this.#call(request, caller, reads, purpose), { signal: deadline }),
                ),
              );
        return this.#answer(request, caller, reads, flight, undefined, 0);
      }
    }
    throw new Error(`the read table answered ${action} for an entry ${state.kind}`);
  }

  /** A call of `request` for `caller`, under the caller's policy. */
  #call(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    reads: RequestReads,
    purpose: Purpose,
  ): Call {
    return { request, caller, policy: this.#policyFor(caller), reads, purpose };
  }

  /**
   * Notes a read of `request` that found `found` in the cache: the request it was (what a refresh
   * re-reads), the report's reads, and a view for the plan's popularity. A record the upstream
   * said it does not have is no view of a record: the plan never ranks it. One not held at all is
   * a first touch asked for, whether the plan then affords it or not.
   */
  #noteRead(
    request: UpstreamRequest<unknown>,
    report: RequestReport,
    found: CacheEntry | undefined,
  ): void {
    this.#known.set(request.key, request);
    report.reads.add(request.key);
    if (found?.outcome !== 'not-found')
      this.options.popularity?.record([request.key], found === undefined);
  }

  /** The policy this caller's reads are spent under: chosen here, once, and nowhere else. */
  #policyFor(caller: Caller): ReadPolicy {
    return caller.mode === 'server' ? this.#serverPolicy : this.#dailyLimit;
  }

  #stateOf(found: CacheEntry | undefined, request: UpstreamRequest<unknown>): EntryState {
    return entryState(found, request, this.options.generation, this.options.cachePolicy.ttlMs);
  }

  #condition(): Condition {
    const { client, circuit, staleGraceMs } = this.options;
    return conditionOf(client.health(), circuit.state, staleGraceMs);
  }

  /**
   * A client key must be proven good by one real call before it may read what other keys cached:
   * this read makes that call (its proof), or waits for the read that does and goes on with its
   * verdict (undefined: accepted). A proof that fails because the upstream does makes the reads
   * waiting on it fail alike, rather than each proving the key in turn.
   */
  async #proofOf(
    caller: Caller,
    { report }: RequestReads,
    deadline: AbortSignal,
  ): Promise<Proof | undefined> {
    if (report.keyAccepted) return undefined;
    const unknownNow = report.keyUnknown;
    report.keyUnknown = false;
    const verdict = await this.#proofs.verdict(caller.keyId, deadline, unknownNow);
    if (verdict === 'rejected') {
      report.unauthenticated = true;
      throw new UpstreamError('UNAUTHENTICATED', 'Invalid or revoked API key');
    }
    if (verdict !== 'accepted') return verdict;
    report.keyAccepted = true;
    return undefined;
  }

  /**
   * The call's answer; or, when the call fails or is slower than `waitMs`, the held entry that
   * may stand in for it.
   */
  async #answer<T>(
    request: UpstreamRequest<T>,
    caller: Caller,
    { report }: RequestReads,
    flight: Promise<CacheEntry>,
    standIn: CacheEntry | undefined,
    waitMs: number,
  ): Promise<T> {
    try {
      const entry = standIn === undefined ? await flight : await withinGrace(flight, waitMs);
      if (entry === undefined)
        return answerStale<T>(standIn as CacheEntry, request, report, this.#observer);
      report.answeredFrom(entry.freshUntil);
      return unwrap<T>(entry, request);
    } catch (error) {
      if (clientKeyRefused(error, caller)) report.unauthenticated = true;
      if (standIn !== undefined && heldAnswers(error))
        return answerStale<T>(standIn, request, report, this.#observer);
      throw error;
    }
  }

  /**
   * After a new generation: the sweep of the popular records this process has read, when the
   * caller's policy sweeps. Resolves once its refreshes have come back, with how many this
   * process started or found under way.
   */
  refreshPopular(caller: Caller): Promise<number> {
    return this.#policyFor(caller).sweep(caller, {
      known: (key) => this.#known.get(key),
      cache: this.options.cache,
      generation: this.options.generation,
      state: (entry, request) => this.#stateOf(entry, request),
      refresh: async (request) => this.#sweepRefresh(request, caller),
    });
  }

  /**
   * Starts the sweep's refresh of `request`. Its end comes wrapped: a promise returned bare would
   * hold the check's slot until the refresh is back.
   */
  #sweepRefresh(request: UpstreamRequest<unknown>, caller: Caller): StartedRefresh {
    this.#refreshBehind(request, caller);
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
  ): Promise<{ value: T; keep(): Promise<void> }> {
    const entry = await this.#calls.fetch(this.#call(request, caller, backgroundReads(), 'poll'));
    return {
      value: unwrap<T>(entry, request),
      keep: () => this.#calls.store(request, { ...entry, ...stampOf(this.options.generation) }),
    };
  }

  /**
   * One refresh of a held record behind its answer, in the background lane: once per process
   * and once across replicas (single-flight.ts); a read that comes to wait for it promotes it.
   */
  #refreshBehind(request: UpstreamRequest<unknown>, caller: Caller): void {
    if (this.#flights.has(request.key)) return;
    this.#flights.refresh(request.key, (signal, priority, claim) =>
      this.#calls.fetchAndStore(
        Object.assign(this.#call(request, caller, backgroundReads(), 'refresh'), {
          signal,
          priority,
          claim,
        }),
      ),
    );
  }
}

/** Requests remembered for refreshes of the head: far more than any head, a few MB at most. */
const KNOWN_REQUESTS = 20_000;

/** How often a process waiting for another replica's fetch (or key proof) looks for its answer. */
const PEER_POLL_MS = 25;
