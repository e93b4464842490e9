/**
 * Who makes the call when several want the same record at once: in this
 * process, the read already under way, joined; across replicas, the holder
 * of the record's flight lease (flight-locks.ts), while the others watch the
 * shared cache for its answer. Background refreshes go through the lease
 * too, so each is one call for the deployment.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import { awaitPeer, type FlightLocks } from '../coordination/flight-locks.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { upstreamTimedOut } from '../upstream/errors.js';
import type { UpstreamObserver } from '../upstream/observer.js';
import { pathOf } from './entries.js';
import type { RequestStats } from './request-stats.js';

export interface SingleFlightOptions {
  readonly locks: FlightLocks;
  /** Where another replica's answer lands. */
  readonly cache: ResponseCache;
  /** Longest time one read may take, a wait on another replica's call included. */
  readonly deadlineMs: number;
  /** How often a process waiting for another replica's fetch looks for its answer. */
  readonly pollMs: number;
  readonly observer: UpstreamObserver;
  /** Whether a stored entry answers a read as it is. */
  readonly servable: (entry: CacheEntry) => boolean;
}

/** Makes the call itself (the caller's fetch-and-store), within `signal`. */
export type Fetch = (signal?: AbortSignal) => Promise<CacheEntry>;

export class SingleFlight {
  readonly #reads = new Map<string, Promise<CacheEntry>>();
  /**
   * Background refreshes, apart from the reads: one of them gives up when
   * another replica holds the lease, which a read waiting on it must not
   * take for its answer (a read makes or awaits the refresh itself).
   */
  readonly #refreshes = new Map<string, Promise<CacheEntry>>();

  constructor(private readonly options: SingleFlightOptions) {}

  /** Distinct upstream reads under way now, shared by however many requests wait on them. */
  get size(): number {
    return this.#reads.size + this.#refreshes.size;
  }

  /** Whether a read or a refresh of `key` is under way in this process. */
  has(key: string): boolean {
    return this.#refreshes.has(key) || this.#reads.has(key);
  }

  /** The refresh of `key` under way in this process, settled either way; undefined when none is. */
  refreshing(key: string): Promise<void> | undefined {
    return this.#refreshes.get(key)?.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The call under way for `request` in this process, joined; or a new one, with its lease. */
  join(request: UpstreamRequest<unknown>, stats: RequestStats, fetch: Fetch): Promise<CacheEntry> {
    const joined = this.#reads.get(request.key);
    if (joined !== undefined) {
      stats.deduplicated += 1;
      this.options.observer.singleFlightJoined(request.resource);
      return joined;
    }
    const flight = this.#leased(request, stats, fetch).finally(() =>
      this.#reads.delete(request.key),
    );
    this.#reads.set(request.key, flight);
    return flight;
  }

  /**
   * Cross-replica single flight: the process holding the resource's lease
   * fetches; the others poll the shared cache for its answer. When the lease
   * ends without an answer (the fetch failed, or its process died and the
   * lease ran out), the next process to take the lease fetches.
   */
  async #leased(
    request: UpstreamRequest<unknown>,
    stats: RequestStats,
    fetch: Fetch,
  ): Promise<CacheEntry> {
    const { cache, locks, deadlineMs, pollMs, servable } = this.options;
    const signal = AbortSignal.timeout(deadlineMs);
    for (;;) {
      const lease = await locks.acquire(request.key);
      if (lease !== undefined) {
        try {
          // Another replica may have stored the answer between our cache miss and our lease.
          const stored = await cache.get(request.key);
          if (stored !== undefined && servable(stored)) {
            stats.deduplicated += 1;
            return stored;
          }
          return await fetch(signal);
        } finally {
          await lease.release();
        }
      }
      const entry = await awaitPeer(
        locks,
        request.key,
        async () => {
          const stored = await cache.get(request.key);
          return stored !== undefined && servable(stored) ? stored : undefined;
        },
        {
          pollMs,
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

  /**
   * One background refresh of `key`: once per process (the refreshes under
   * way) and once across replicas (the flight lease). A replica that finds
   * the lease held waits for its holder to let go, then makes the call
   * itself unless a current answer is stored by then: the holder may have
   * held it for a read the plan answered from a held entry, with no call,
   * and a sweep's refresh left to it was then not made at all. If another
   * replica takes the lease first, the refresh is left to that one.
   *
   * It waits by looking at the lease, seldom (LEASE_LOOK_MS), never at the
   * shared cache. Every replica sweeps the same records at a new
   * generation; losers that looked for the answer in the cache every 25 ms,
   * as a waiting read does, hundreds of records at once, brought back views
   * of the run's favourites two refreshes old in `npm run simulate` (1-3 a
   * day, none before; most likely reads waiting past the stale grace, not
   * traced). Looking at the lease alone, none.
   */
  refresh(key: string, fetch: Fetch): void {
    const { cache, locks, servable, deadlineMs } = this.options;
    const current = async () => {
      const stored = await cache.get(key);
      return stored !== undefined && servable(stored) ? stored : undefined;
    };
    const refresh = (async (): Promise<CacheEntry> => {
      // Bounds the wait for another replica; the call itself has its own deadline.
      const waiting = AbortSignal.timeout(deadlineMs);
      for (let tries = 0; ; tries += 1) {
        const lease = await locks.acquire(key);
        if (lease !== undefined) {
          try {
            return (await current()) ?? (await fetch());
          } finally {
            await lease.release();
          }
        }
        if (tries > 0) throw new Error('another replica refreshes it');
        while (await locks.isHeld(key)) await sleep(LEASE_LOOK_MS, undefined, { signal: waiting });
        const stored = await current();
        if (stored !== undefined) return stored;
      }
    })();
    const flight = refresh.finally(() => this.#refreshes.delete(key));
    this.#refreshes.set(key, flight);
    // Its failure changes nothing: the cached answer stands, the next read tries again.
    flight.catch(() => undefined);
  }
}

/**
 * How often a refresh that found the lease held looks whether its holder is done: a refresh is
 * in the background, and a quarter of a second later is as good as at once.
 */
const LEASE_LOOK_MS = 250;
