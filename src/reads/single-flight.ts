/**
 * Who makes the call when several want the same record at once: in this
 * process, the read already under way, joined; across replicas, the holder
 * of the record's flight lease (flight-locks.ts), while the others watch the
 * shared cache for its answer. Background refreshes go through the lease
 * too, so each is one call for the deployment.
 */
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
   * Background refreshes, apart from the reads: one of them may end without
   * an answer (its call failed or was not afforded, its deadline passed),
   * which a read waiting on it must not take for its own (a read makes or
   * awaits the call itself).
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
    const flight = this.#leased(request.key, fetch, () => upstreamTimedOut(pathOf(request)))
      .then(({ entry, fromPeer }) => {
        if (fromPeer) stats.deduplicated += 1;
        return entry;
      })
      .finally(() => this.#reads.delete(request.key));
    this.#reads.set(request.key, flight);
    return flight;
  }

  /**
   * Cross-replica single flight: the process holding the resource's lease
   * fetches; the others poll the shared cache for its answer. When the lease
   * ends without an answer (the fetch failed, the holder's read was answered
   * without a call, or its process died and the lease ran out), the next
   * process to take the lease fetches. `fromPeer`: the entry is another
   * replica's answer, no call of this one.
   */
  async #leased(
    key: string,
    fetch: Fetch,
    timedOut: () => Error,
  ): Promise<{ entry: CacheEntry; fromPeer: boolean }> {
    const { cache, locks, deadlineMs, pollMs, servable } = this.options;
    const signal = AbortSignal.timeout(deadlineMs);
    const current = async () => {
      const stored = await cache.get(key);
      return stored !== undefined && servable(stored) ? stored : undefined;
    };
    for (;;) {
      const lease = await locks.acquire(key);
      if (lease !== undefined) {
        try {
          // Another replica may have stored the answer between our cache miss and our lease.
          const stored = await current();
          if (stored !== undefined) return { entry: stored, fromPeer: true };
          return { entry: await fetch(signal), fromPeer: false };
        } finally {
          await lease.release();
        }
      }
      const entry = await awaitPeer(locks, key, current, { pollMs, signal, timedOut });
      if (entry !== undefined) return { entry, fromPeer: true };
    }
  }

  /**
   * One background refresh of `key`: once per process (the refreshes under
   * way) and once across replicas (the flight lease). A replica that does not
   * get the lease waits for the holder's answer, and makes the call itself
   * when the holder ends without one: the holder may have held it for a read
   * answered from a held entry, with no call (the plan paid for none), and
   * left, a sweep's refresh given up to it was not made at all.
   */
  refresh(key: string, fetch: Fetch): void {
    const refresh = this.#leased(key, fetch, () => new Error(`refresh of ${key} timed out`));
    const flight = refresh.then(({ entry }) => entry).finally(() => this.#refreshes.delete(key));
    this.#refreshes.set(key, flight);
    // Its failure changes nothing: the cached answer stands, the next read tries again.
    flight.catch(() => undefined);
  }
}
