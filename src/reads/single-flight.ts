/**
 * Who makes the call when several want the same record at once: in this
 * process, the read already under way, joined; across replicas, the holder
 * of the record's flight lease (flight-locks.ts), while the others watch the
 * shared cache for its answer. Background refreshes go through the lease
 * too, so each is one call for the deployment.
 */
import type { CacheEntry, ResponseCache } from '../cache/cache.js';
import { awaitPeer, type FlightLease, type FlightLocks } from '../coordination/flight-locks.js';
import { CallPriority } from '../upstream/call-lanes.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { upstreamTimedOut } from '../upstream/errors.js';
import type { UpstreamObserver } from '../upstream/observer.js';
import { pathOf } from './entries.js';
import type { RequestReport } from './request-report.js';

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
  readonly current: (entry: CacheEntry) => boolean;
}

/**
 * Makes the call itself (the caller's fetch-and-store), within `signal`, in the lane `priority`
 * names; `claim`, when given, is asked once the call has its connection slot, right before it
 * leaves, and throws to keep it from leaving.
 */
export type Fetch = (
  signal?: AbortSignal,
  priority?: CallPriority,
  claim?: () => Promise<void>,
) => Promise<CacheEntry>;

/** A background refresh that did not leave: another replica has the record in hand, or it is current. */
export class RefreshNotNeeded extends Error {
  override readonly name = 'RefreshNotNeeded';
}

interface Refresh {
  readonly flight: Promise<CacheEntry>;
  /** Its call's lane: a read that comes to wait for it moves it to the reader's. */
  readonly priority: CallPriority;
}

export class SingleFlight {
  readonly #reads = new Map<string, Promise<CacheEntry>>();
  /**
   * Background refreshes, apart from the reads: one of them gives up when
   * another replica holds the lease, which a read waiting on it must not
   * take for its answer (a read makes or awaits the refresh itself).
   */
  readonly #refreshes = new Map<string, Refresh>();

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
    return this.#refreshes.get(key)?.flight.then(
      () => undefined,
      () => undefined,
    );
  }

  /** The call under way for `request` in this process, joined; or a new one, with its lease. */
  join(
    request: UpstreamRequest<unknown>,
    report: RequestReport,
    fetch: Fetch,
  ): Promise<CacheEntry> {
    // A refresh of it queued behind the background calls has a reader waiting now.
    this.#refreshes.get(request.key)?.priority.promote();
    const joined = this.#reads.get(request.key);
    if (joined !== undefined) {
      report.deduplicated += 1;
      this.options.observer.singleFlightJoined(request.resource);
      return joined;
    }
    const flight = this.#leased(request, report, fetch).finally(() =>
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
    report: RequestReport,
    fetch: Fetch,
  ): Promise<CacheEntry> {
    const { cache, locks, deadlineMs, pollMs, current } = this.options;
    const signal = AbortSignal.timeout(deadlineMs);
    for (;;) {
      const lease = await locks.acquire(request.key);
      if (lease !== undefined) {
        try {
          // Another replica may have stored the answer between our cache miss and our lease.
          const stored = await cache.get(request.key);
          if (stored !== undefined && current(stored)) {
            report.deduplicated += 1;
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
          return stored !== undefined && current(stored) ? stored : undefined;
        },
        {
          pollMs,
          signal,
          timedOut: () => upstreamTimedOut(pathOf(request)),
        },
      );
      if (entry !== undefined) {
        report.deduplicated += 1;
        return entry;
      }
    }
  }

  /**
   * One background refresh of `key`: once per process (the refreshes under
   * way) and once across replicas (the flight lease). The lease is claimed
   * only when the call has its connection slot: queued behind the sweep, a
   * refresh holding the lease would keep another replica's reader waiting
   * on a call that has not left, where that reader can make it at once in
   * its own reader's lane; this refresh then finds the record current, or
   * the lease taken, and does not leave. A replica that does not get the
   * lease leaves the refresh to the holder, without waiting
   * (docs/decisions/background-refresh-leaves-it-to-the-lease-holder.md).
   */
  refresh(key: string, fetch: Fetch): void {
    const { cache, locks, current } = this.options;
    const priority = new CallPriority('background');
    let lease: FlightLease | undefined;
    const claim = async () => {
      lease = await locks.acquire(key);
      if (lease === undefined) throw new RefreshNotNeeded('another replica refreshes it');
      const stored = await cache.get(key);
      if (stored !== undefined && current(stored))
        throw new RefreshNotNeeded('it was refreshed meanwhile');
    };
    const flight = fetch(undefined, priority, claim).finally(async () => {
      await lease?.release();
      this.#refreshes.delete(key);
    });
    this.#refreshes.set(key, { flight, priority });
    // Its failure changes nothing: the cached answer stands, the next read tries again.
    flight.catch(() => undefined);
  }
}
