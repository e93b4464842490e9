/**
 * Every upstream read goes through here: the cross-request cache, the
 * single flight that lets concurrent requests share one call, the daily
 * budget, retries, and stale-if-error. DataLoaders sit in front of it, one
 * set per GraphQL request.
 */
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import { SILENT_OBSERVER, type UpstreamObserver } from '../observability/upstream-observer.js';
import type { BudgetLedger } from './budget.js';
import type { UpstreamClient } from './client.js';
import type { UpstreamRequest } from './endpoints.js';
import { UpstreamError } from './errors.js';
import type { KeyRegistry } from './key-registry.js';
import { ShapeError } from './readers.js';
import type { UpstreamNotices } from './upstream-notices.js';
import { ReadNotes } from './reading.js';
import type { RequestStats } from './request-stats.js';
import { type RetryPolicy, withRetries } from './retry.js';

/** Who is asking: the key the upstream call is made with, and whether it is the gateway's own. */
export interface Caller {
  readonly apiKey: string;
  /** A hash of the key: what budgets and logs use. */
  readonly keyId: string;
  /** `server`: the gateway's configured key; `client`: a key the client passed through. */
  readonly mode: 'server' | 'client';
}

export interface CachePolicy {
  readonly ttlMs: number;
  readonly notFoundTtlMs: number;
  /** How long past its TTL an entry may still answer when the upstream fails. */
  readonly staleIfErrorMs: number;
}

export interface CachedUpstreamOptions {
  readonly client: UpstreamClient;
  readonly cache: ResponseCache;
  readonly budget: BudgetLedger;
  readonly keys: KeyRegistry;
  readonly cachePolicy: CachePolicy;
  readonly retry: RetryPolicy;
  /** Longest time one read may take, retries included. */
  readonly deadlineMs: number;
  /** Where tolerated oddities of upstream bodies and contradicted assumptions are reported. */
  readonly notices: UpstreamNotices;
  /** Told of cache, single-flight and stale decisions (metrics, traces). */
  readonly observer?: UpstreamObserver;
}

export class CachedUpstream {
  readonly #inFlight = new Map<string, Promise<CacheEntry>>();

  constructor(private readonly options: CachedUpstreamOptions) {}

  get #observer(): UpstreamObserver {
    return this.options.observer ?? SILENT_OBSERVER;
  }

  /** Distinct upstream reads under way now, shared by however many requests wait on them. */
  get inFlight(): number {
    return this.#inFlight.size;
  }

  async read<T>(request: UpstreamRequest<T>, caller: Caller, stats: RequestStats): Promise<T> {
    const { cache, keys } = this.options;
    if (caller.mode === 'client' && keys.status(caller.keyId) === 'rejected') {
      stats.unauthenticated = true;
      throw new UpstreamError('UNAUTHENTICATED', 'Invalid or revoked API key');
    }
    // A client key must be proven good by one real call before it may read what other keys cached.
    const trusted = caller.mode === 'server' || keys.status(caller.keyId) === 'accepted';
    const cached = trusted ? cache.get(request.key) : undefined;
    if (trusted) this.#observer.cacheLookup('l1', cached !== undefined && cached.freshUntil > Date.now(), request.resource);
    if (cached !== undefined && cached.freshUntil > Date.now()) {
      stats.cacheHits += 1;
      return unwrap<T>(cached, request);
    }

    const flightKey = trusted ? request.key : `${caller.keyId} ${request.key}`;
    let flight = this.#inFlight.get(flightKey);
    if (flight === undefined) {
      flight = this.#fetchAndStore(request, caller, stats).finally(() => this.#inFlight.delete(flightKey));
      this.#inFlight.set(flightKey, flight);
    } else {
      stats.deduplicated += 1;
      this.#observer.singleFlightJoined(request.resource);
    }

    try {
      return unwrap<T>(await flight, request);
    } catch (error) {
      if (error instanceof UpstreamError && error.code === 'UNAUTHENTICATED' && caller.mode === 'client') {
        stats.unauthenticated = true;
      }
      if (
        cached !== undefined &&
        error instanceof UpstreamError &&
        error.isTransient &&
        cached.staleUntil > Date.now()
      ) {
        stats.stale.push({
          resource: request.resource,
          path: request.key.split('?')[0] ?? request.key,
          ageSeconds: Math.round((Date.now() - cached.storedAt) / 1000),
        });
        this.#observer.staleServed(request.resource);
        return unwrap<T>(cached, request);
      }
      throw error;
    }
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

  async #fetchAndStore(request: UpstreamRequest<unknown>, caller: Caller, stats: RequestStats): Promise<CacheEntry> {
    const { client, cache, budget, keys, cachePolicy, retry, deadlineMs } = this.options;
    const signal = AbortSignal.timeout(deadlineMs);
    const attempt = () => {
      if (!budget.canSpend(caller.keyId)) {
        return Promise.reject(
          new UpstreamError('RATE_LIMITED', 'The daily upstream request budget of this API key is spent', {
            resetsAt: budget.resetsAt(),
          }),
        );
      }
      stats.countCall();
      budget.spend(caller.keyId);
      return client.get(request.key, caller.apiKey, signal, request.resource);
    };

    try {
      const response = await withRetries(attempt, retry, Date.now() + deadlineMs, signal);
      if (caller.mode === 'client') keys.markAccepted(caller.keyId);
      const entry = entryFor('value', this.#readBody(request, response.body), response.bytes, cachePolicy.ttlMs);
      cache.set(request.key, entry);
      return entry;
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      switch (error.code) {
        case 'NOT_FOUND': {
          if (caller.mode === 'client') keys.markAccepted(caller.keyId);
          const entry = entryFor('not-found', error.message, error.message.length, cachePolicy.notFoundTtlMs);
          cache.set(request.key, entry);
          return entry;
        }
        case 'BAD_USER_INPUT':
          if (request.assumption !== undefined) this.options.notices.assumptionContradicted(request, error.message);
          throw error;
        case 'UNAUTHENTICATED':
          if (caller.mode === 'server') {
            // The gateway's own key failing is an outage for clients, not their mistake.
            throw new UpstreamError('UPSTREAM_ERROR', "The upstream API rejected the gateway's API key", {
              status: error.status,
              path: error.path,
            });
          }
          keys.markRejected(caller.keyId);
          throw error;
        case 'RATE_LIMITED':
          if (error.status === 429) budget.markExhausted(caller.keyId);
          throw new UpstreamError('RATE_LIMITED', error.message, {
            status: error.status,
            path: error.path,
            resetsAt: error.resetsAt ?? budget.resetsAt(),
          });
        default:
          throw error;
      }
    }

    function entryFor(outcome: CacheEntry['outcome'], value: unknown, bytes: number, ttlMs: number): CacheEntry {
      const now = Date.now();
      return {
        outcome,
        value,
        bytes,
        storedAt: now,
        freshUntil: now + ttlMs,
        staleUntil: now + ttlMs + cachePolicy.staleIfErrorMs,
      };
    }
  }
}

function pathOf(request: UpstreamRequest<unknown>): string {
  return request.key.split('?')[0] ?? request.key;
}

function unwrap<T>(entry: CacheEntry, request: UpstreamRequest<T>): T {
  if (entry.outcome === 'not-found') {
    throw new UpstreamError('NOT_FOUND', String(entry.value), { status: 404, path: request.key.split('?')[0] });
  }
  return entry.value as T;
}
