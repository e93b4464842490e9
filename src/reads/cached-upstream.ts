/**
 * Every upstream read goes through here: the cross-request cache, the
 * single flight that lets concurrent requests (of this process, and of every
 * replica through FlightLocks) share one call, the daily budget, retries,
 * and stale-if-error. DataLoaders sit in front of it, one set per GraphQL
 * request.
 */
import { LRUCache } from 'lru-cache';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import { type CircuitBreaker, isUpstreamFailure } from '../coordination/circuit-breaker.js';
import { awaitPeer, type FlightLocks } from '../coordination/flight-locks.js';
import { KeyProofs } from '../coordination/key-proofs.js';
import type { KeyRegistry } from '../coordination/key-registry.js';
import type { Allocator } from '../economy/allocator.js';
import type { BudgetLedger, Spender } from '../economy/ledger.js';
import type { Popularity } from '../economy/popularity.js';
import type { Purpose } from '../economy/spending-plan.js';
import {
  type GenerationView,
  generationsBehind,
  isCurrentGeneration,
} from '../freshness/generation.js';
import type { SendGate, UpstreamClient } from '../upstream/client.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError, upstreamTimedOut } from '../upstream/errors.js';
import { SILENT_OBSERVER, type UpstreamObserver } from '../upstream/observer.js';
import { ShapeError } from '../upstream/readers.js';
import { ReadNotes } from '../upstream/reading.js';
import { type RetryPolicy, withRetries } from '../upstream/retry.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import { RequestStats } from './request-stats.js';

/** Who is asking: the key the upstream call is made with, and whether it is the gateway's own. */
export interface Caller {
  readonly apiKey: string;
  /** A hash of the key: what budgets and logs use. */
  readonly keyId: string;
  /** `server`: the gateway's configured key; `client`: a key the client passed through. */
  readonly mode: 'server' | 'client';
  /** Hashed identity of the client (server-key mode), for its share of the day's budget. */
  readonly clientId?: string;
}

export interface CachePolicy {
  /** Without a known data generation, how long an answer is served without asking again. */
  readonly ttlMs: number;
  readonly notFoundTtlMs: number;
  /**
   * How long a paid-for answer is kept at most (memory pressure usually
   * evicts first). Until then it answers whenever no call is made for it:
   * the upstream fails, or the plan spends the day elsewhere.
   */
  readonly retentionMs: number;
}

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

/**
 * Share of the day's budget kept for reads nothing cached can answer: below
 * it, answers of the previous generation are served on instead of refreshed.
 */
export const REVALIDATION_RESERVE_SHARE = 0.1;

export class CachedUpstream {
  readonly #inFlight = new Map<string, Promise<CacheEntry>>();
  /**
   * Background refreshes, apart from the reads: one of them gives up when
   * another replica holds the lease, which a read waiting on it must not
   * take for its answer (a read makes or awaits the refresh itself).
   */
  readonly #refreshing = new Map<string, Promise<CacheEntry>>();
  /** The requests this process has read, by key: what a refresh of a popular record re-reads. */
  readonly #known = new LRUCache<string, UpstreamRequest<unknown>>({ max: KNOWN_REQUESTS });

  /** Pass-through keys the gateway does not know: one read proves each, the others wait for its verdict. */
  readonly #proofs: KeyProofs;

  constructor(private readonly options: CachedUpstreamOptions) {
    this.#proofs = new KeyProofs({
      keys: options.keys,
      locks: options.locks,
      pollMs: PEER_POLL_MS,
      timedOut: () => upstreamTimedOut(),
    });
  }

  get #observer(): UpstreamObserver {
    return this.options.observer ?? SILENT_OBSERVER;
  }

  /** Distinct upstream reads under way now, shared by however many requests wait on them. */
  get inFlight(): number {
    return this.#inFlight.size + this.#refreshing.size;
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
    const { cache, deadlineMs } = this.options;
    // A client key must be proven good by one real call before it may read what other keys cached:
    // this read makes that call (`proof`), or waits for the read that does and goes on with its verdict.
    const verdict =
      caller.mode === 'client'
        ? await this.#proofs.verdict(caller.keyId, AbortSignal.timeout(deadlineMs))
        : 'accepted';
    if (verdict === 'rejected') {
      stats.unauthenticated = true;
      throw new UpstreamError('UNAUTHENTICATED', 'Invalid or revoked API key');
    }
    const proof = verdict === 'accepted' ? undefined : verdict;
    this.#known.set(request.key, request);
    stats.reads.add(request.key);
    const found = proof === undefined ? await cache.get(request.key) : undefined;
    // A record the upstream said it does not have is no view of a record: the plan never ranks it.
    if (found?.outcome !== 'not-found') this.options.popularity?.record([request.key]);
    if (found !== undefined && this.#servable(found)) {
      stats.cacheHits += 1;
      stats.answeredFrom(found.freshUntil);
      return unwrap<T>(found, request);
    }
    // A not-found answer is not held: past its TTL or its generation, the record is unknown again.
    const cached = found?.outcome === 'not-found' ? undefined : found;
    if (cached !== undefined) {
      const policy = await this.#heldPolicy(cached, request, caller);
      if (policy !== 'refresh-first') {
        this.#answerHeld(cached, stats);
        if (cached.freshUntil > Date.now()) stats.previousGeneration += 1;
        if (policy === 'serve-then-refresh' && !(await this.#revalidate(request, caller)))
          stats.revalidationDeferred = true;
        return unwrap<T>(cached, request);
      }
    }

    const flight =
      proof === undefined
        ? this.#sharedFlight(
            request,
            caller,
            stats,
            cached === undefined ? 'first-touch' : 'refresh',
          )
        : // A proof is alone in its key by construction: it shares no flight, and it always ends.
          this.#fetchAndStore(request, caller, stats, 'first-touch').finally(() => proof.done());

    const standIn = cached !== undefined && cached.staleUntil > Date.now() ? cached : undefined;
    const serveStale = (): T => {
      const entry = standIn as CacheEntry;
      stats.heldFrom(entry);
      stats.stale.push({
        resource: request.resource,
        path: pathOf(request),
        ageSeconds: Math.round((Date.now() - entry.storedAt) / 1000),
      });
      this.#observer.staleServed(request.resource);
      return unwrap<T>(entry, request);
    };
    try {
      // A slow upstream does not hold up an answer that a stale entry can give: past the grace,
      // the reader gets the stale entry and the call goes on, refreshing the cache when it lands.
      const entry =
        standIn === undefined ? await flight : await withinGrace(flight, this.options.staleGraceMs);
      if (entry === undefined) return serveStale();
      stats.answeredFrom(entry.freshUntil);
      return unwrap<T>(entry, request);
    } catch (error) {
      if (
        error instanceof UpstreamError &&
        error.code === 'UNAUTHENTICATED' &&
        caller.mode === 'client'
      ) {
        stats.unauthenticated = true;
      }
      // Any failure that is the upstream's, a garbled 200 included, is answered by a stale entry;
      // so is a call the day's budget or plan does not make: a record once read is never refused.
      if (
        standIn !== undefined &&
        error instanceof UpstreamError &&
        (error.isTransient || error.code === 'UPSTREAM_INVALID_RESPONSE')
      ) {
        return serveStale();
      }
      throw error;
    }
  }

  /** The call under way for `request` in this process, joined; or a new one, with its lease. */
  #sharedFlight(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    stats: RequestStats,
    purpose: Purpose,
  ): Promise<CacheEntry> {
    const joined = this.#inFlight.get(request.key);
    if (joined !== undefined) {
      stats.deduplicated += 1;
      this.#observer.singleFlightJoined(request.resource);
      return joined;
    }
    const flight = this.#fetchOnce(request, caller, stats, purpose).finally(() =>
      this.#inFlight.delete(request.key),
    );
    this.#inFlight.set(request.key, flight);
    return flight;
  }

  /**
   * After a new generation: starts the refresh of the head, the most asked
   * records (allocator.ts), in order of popularity, before anyone asks for
   * them again. Every replica does it for the records it has read; the
   * flight lease makes each refresh one call for the deployment. Returns how
   * many refreshes this process started or found under way.
   */
  async refreshHead(caller: Caller): Promise<number> {
    const planned = this.#planned(caller);
    if (planned === undefined) return 0;
    let started = 0;
    for (const key of await planned.popularity.top(planned.plan.headRecords)) {
      const request = this.#known.get(key);
      if (request === undefined) continue;
      const cached = await this.options.cache.get(key);
      if (cached === undefined || cached.outcome === 'not-found' || this.#servable(cached))
        continue;
      if (await this.#revalidate(request, caller)) started += 1;
    }
    return started;
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
      keep: () => this.#store(request, { ...entry, ...this.#stamp() }),
    };
  }

  /** Fresh by its TTL and read in the current generation (or no generation is known). */
  #servable(entry: CacheEntry): boolean {
    if (entry.freshUntil <= Date.now()) return false;
    return isCurrentGeneration(entry.generation, this.options.generation?.now());
  }

  /**
   * What a held entry that is not current is good for. Without the plan:
   * one of an older generation answers at once while it is refreshed in the
   * background (stale-while-revalidate); one past its TTL is asked for again.
   * With the plan (allocator.ts), by popularity: the tail is served as it is;
   * the head is served and refreshed in the background; the records after it
   * are served as they are while one generation behind and refreshed before
   * they answer once two behind; past its TTL (no generation tells), a
   * popular record is asked for again.
   */
  async #heldPolicy(
    cached: CacheEntry,
    request: UpstreamRequest<unknown>,
    caller: Caller,
  ): Promise<'serve' | 'serve-then-refresh' | 'refresh-first'> {
    const olderGeneration = cached.freshUntil > Date.now();
    const planned = this.#planned(caller);
    if (planned === undefined) return olderGeneration ? 'serve-then-refresh' : 'refresh-first';
    const lag = await planned.allowedLag(request.key);
    if (lag === Number.POSITIVE_INFINITY) return 'serve';
    // Never served two generations behind: a popular record is always at most one refresh old.
    if (
      !olderGeneration ||
      generationsBehind(cached.generation, this.options.generation?.now()) >= 2
    )
      return 'refresh-first';
    return lag === 0 ? 'serve-then-refresh' : 'serve';
  }

  /** The allocator, when the plan applies to this caller: the gateway's own key. */
  #planned(caller: Caller): Allocator | undefined {
    return caller.mode === 'server' ? this.options.allocator : undefined;
  }

  /** Answers from a held entry that is not current: its age goes into the report, and nothing reuses it. */
  #answerHeld(entry: CacheEntry, stats: RequestStats): void {
    stats.cacheHits += 1;
    stats.heldFrom(entry);
    stats.answeredFrom(Date.now());
  }

  #stamp(): { generation?: number } {
    const current = this.options.generation?.now();
    return current === undefined ? {} : { generation: current.id };
  }

  /**
   * One background refresh of an answer from an older generation: once per
   * process (the in-flight map) and once across replicas (the flight lease;
   * a replica that does not get it leaves the refresh to the holder). With
   * the plan, only the head gets here. False when, without the plan, the
   * budget is low: the previous generation is served on.
   */
  async #revalidate(request: UpstreamRequest<unknown>, caller: Caller): Promise<boolean> {
    if (this.#refreshing.has(request.key) || this.#inFlight.has(request.key)) return true;
    // The plan has its own share for refreshes; without it, the last part of the day is kept for reads nothing answers.
    if (this.#planned(caller) === undefined) {
      const usage = await this.options.budget.usage(caller.keyId);
      if (usage.remaining <= Math.ceil(usage.dailyLimit * REVALIDATION_RESERVE_SHARE)) return false;
    }
    const refresh = (async (): Promise<CacheEntry> => {
      const lease = await this.options.locks.acquire(request.key);
      if (lease === undefined) throw new Error('another replica refreshes it');
      try {
        const stored = await this.options.cache.get(request.key);
        if (stored !== undefined && this.#servable(stored)) return stored;
        return await this.#fetchAndStore(request, caller, new RequestStats(), 'refresh');
      } finally {
        await lease.release();
      }
    })();
    const flight = refresh.finally(() => this.#refreshing.delete(request.key));
    this.#refreshing.set(request.key, flight);
    // Its failure changes nothing: the cached answer stands, the next read tries again.
    flight.catch(() => undefined);
    return true;
  }

  #readBody(request: UpstreamRequest<unknown>, body: unknown): unknown {
    const notes = new ReadNotes();
    try {
      return request.read(body, notes);
    } catch (error) {
      if (!(error instanceof ShapeError)) throw error;
      throw new UpstreamError(
        'UPSTREAM_INVALID_RESPONSE',
        `The upstream API answered the ${request.resource} request with an unreadable body: ${error.message}`,
        { path: pathOf(request), cause: error },
      );
    } finally {
      this.options.notices.bodyRead(request, notes.notes);
    }
  }

  /**
   * Cross-replica single flight: the process holding the resource's lease
   * fetches; the others poll the shared cache for its answer. When the lease
   * ends without an answer (the fetch failed, or its process died and the
   * lease ran out), the next process to take the lease fetches.
   */
  async #fetchOnce(
    request: UpstreamRequest<unknown>,
    caller: Caller,
    stats: RequestStats,
    purpose: Purpose,
  ): Promise<CacheEntry> {
    const { cache, locks, deadlineMs } = this.options;
    const signal = AbortSignal.timeout(deadlineMs);
    for (;;) {
      const lease = await locks.acquire(request.key);
      if (lease !== undefined) {
        try {
          // Another replica may have stored the answer between our cache miss and our lease.
          const stored = await cache.get(request.key);
          if (stored !== undefined && this.#servable(stored)) {
            stats.deduplicated += 1;
            return stored;
          }
          return await this.#fetchAndStore(request, caller, stats, purpose, signal);
        } finally {
          await lease.release();
        }
      }
      const entry = await awaitPeer(
        locks,
        request.key,
        async () => {
          const stored = await cache.get(request.key);
          return stored !== undefined && this.#servable(stored) ? stored : undefined;
        },
        {
          pollMs: PEER_POLL_MS,
          signal,
          timedOut: () => upstreamTimedOut(pathOf(request)),
        },
      );
      if (entry !== undefined) {
        stats.deduplicated += 1;
        return entry;
      }
    }
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
    const { client, budget, keys, cachePolicy, retry, deadlineMs, circuit } = this.options;
    const planned = this.#planned(caller);
    // The generation when the read starts: an answer that was on its way while a newer one was seen may predate it.
    const stamp = this.#stamp();
    const gate: SendGate = {
      async admit() {
        // An upstream known to be down costs nothing: no call, no budget.
        await circuit.admit();
        // The request's own cap first: a call it refuses spends nothing of the day.
        stats.countCall();
        const spender: Spender = {
          keyId: caller.keyId,
          ...(caller.clientId === undefined ? {} : { clientId: caller.clientId }),
        };
        try {
          await (planned === undefined
            ? budget.reserve(spender)
            : planned.reserve(spender, purpose, request.key));
        } catch (error) {
          stats.upstreamCalls -= 1;
          throw error;
        }
        // The request goes upstream: whatever else it reads will need connections too.
        if (stats.upstreamCalls === 1) client.expectCalls(stats.estimatedCalls);
      },
      rateLimited: (error) => budget.rateLimited(caller.keyId, error),
    };
    const attempt = () =>
      client.get(request.key, caller.apiKey, signal, gate, request.resource).then(
        (response) => {
          circuit.succeeded();
          return response;
        },
        (error: unknown) => {
          if (isUpstreamFailure(error)) circuit.failed();
          else if (error instanceof UpstreamError && error.status !== undefined)
            circuit.succeeded();
          throw error;
        },
      );

    try {
      const response = await withRetries(attempt, retry, performance.now() + deadlineMs, signal);
      if (caller.mode === 'client') await keys.markAccepted(caller.keyId);
      return entryFor(
        'value',
        this.#readBody(request, response.body),
        response.bytes,
        cachePolicy.ttlMs,
      );
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      switch (error.code) {
        case 'NOT_FOUND': {
          if (caller.mode === 'client') await keys.markAccepted(caller.keyId);
          return entryFor(
            'not-found',
            error.message,
            error.message.length,
            cachePolicy.notFoundTtlMs,
          );
        }
        case 'BAD_USER_INPUT':
          if (request.assumption !== undefined)
            this.options.notices.assumptionContradicted(request, error.message);
          throw error;
        case 'UNAUTHENTICATED':
          if (caller.mode === 'server') {
            // The gateway's own key failing is an outage for clients, not their mistake.
            throw new UpstreamError(
              'UPSTREAM_ERROR',
              "The upstream API rejected the gateway's API key",
              {
                status: error.status,
                path: error.path,
              },
            );
          }
          await Promise.all([keys.markRejected(caller.keyId), budget.forget(caller.keyId)]);
          throw error;
        case 'RATE_LIMITED':
          throw new UpstreamError('RATE_LIMITED', error.message, {
            status: error.status,
            path: error.path,
            resetsAt: error.resetsAt ?? budget.resetsAt(),
            ...(error.retryAfterSeconds === undefined
              ? {}
              : { retryAfterSeconds: error.retryAfterSeconds }),
          });
        default:
          throw error;
      }
    }

    function entryFor(
      outcome: CacheEntry['outcome'],
      value: unknown,
      bytes: number,
      ttlMs: number,
    ): CacheEntry {
      const now = Date.now();
      // What was paid for is kept to answer when no call is made; a not-found answer only for its TTL.
      const keptMs = outcome === 'value' ? Math.max(ttlMs, cachePolicy.retentionMs) : ttlMs;
      return {
        outcome,
        value,
        bytes,
        storedAt: now,
        freshUntil: now + ttlMs,
        staleUntil: now + keptMs,
        ...stamp,
      };
    }
  }
}

/** The flight's entry, or undefined when it takes longer than `graceMs` (it goes on; its failure is not lost). */
function withinGrace(
  flight: Promise<CacheEntry>,
  graceMs: number,
): Promise<CacheEntry | undefined> {
  let cancel = () => {};
  const grace = new Promise<undefined>((resolve) => {
    const timer = setTimeout(() => resolve(undefined), graceMs);
    cancel = () => clearTimeout(timer);
  });
  flight.catch(() => undefined);
  return Promise.race([flight, grace]).finally(cancel);
}

/** How long a read waits for a slow upstream before a stale entry answers (CACHE_STALE_GRACE_MS). */
export const DEFAULT_STALE_GRACE_MS = 1_000;

/** Requests remembered for refreshes of the head: far more than any head, a few MB at most. */
const KNOWN_REQUESTS = 20_000;

/** How often a process waiting for another replica's fetch looks for its answer. */
const PEER_POLL_MS = 25;

/** Where a list's length is kept; upstream keys are paths (`/api/...`), so this prefix never collides with one. */
function totalKey(listKey: string): string {
  return `list-total ${listKey}`;
}

function pathOf(request: UpstreamRequest<unknown>): string {
  return request.key.split('?')[0] ?? request.key;
}

function unwrap<T>(entry: CacheEntry, request: UpstreamRequest<T>): T {
  if (entry.outcome === 'not-found') {
    throw new UpstreamError('NOT_FOUND', String(entry.value), {
      status: 404,
      path: pathOf(request),
    });
  }
  return entry.value as T;
}
