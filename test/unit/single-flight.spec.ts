/**
 * Single flight across replicas (src/reads/single-flight.ts): two replicas'
 * flights on one real Redis's leases (each test under a key prefix of its
 * own) and one shared cache. A background refresh that finds the lease held
 * waits for the holder to let go, and makes the call itself when no current
 * answer is stored by then: a read answered from a held entry makes no call,
 * and a sweep's refresh left to it was never made.
 */
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/cache.js';
import { MemoryCache } from '../../src/cache/memory-cache.js';
import type { FlightLocks } from '../../src/coordination/flight-locks.js';
import { RedisFlightLocks } from '../../src/coordination/redis-flight-locks.js';
import { RequestStats } from '../../src/reads/request-stats.js';
import { SingleFlight } from '../../src/reads/single-flight.js';
import { endpoints } from '../../src/upstream/endpoints.js';
import { SILENT_OBSERVER } from '../../src/upstream/observer.js';
import { until } from '../support/until.js';
import { redisPerTest } from './redis-per-test.js';

const REQUEST = endpoints.artist('burna-boy');

function entry(value: string): CacheEntry {
  const now = Date.now();
  return {
    outcome: 'value',
    value,
    bytes: 100,
    storedAt: now,
    freshUntil: now + 60_000,
    staleUntil: now + 120_000,
  };
}

/** A fetch that waits for the test's word, and counts its calls. */
function gatedFetch() {
  let open: (outcome: () => Promise<CacheEntry>) => void = () => undefined;
  const gate = new Promise<() => Promise<CacheEntry>>((resolve) => {
    open = resolve;
  });
  const fetch = { calls: 0, open, run: async () => (await gate)() };
  return {
    fetch,
    call: async () => {
      fetch.calls += 1;
      return fetch.run();
    },
  };
}

describe('SingleFlight across replicas', () => {
  const shared = redisPerTest();

  /** Two replicas' flights on one cache and one Redis's leases. */
  function replicas(cache: MemoryCache) {
    const asked = { whetherHeld: 0 };
    const leases = new RedisFlightLocks(shared.redis);
    const watched: FlightLocks = {
      acquire: (key) => leases.acquire(key),
      isHeld: (key) => {
        asked.whetherHeld += 1;
        return leases.isHeld(key);
      },
    };
    const flightOf = (locks: FlightLocks) =>
      new SingleFlight({
        locks,
        cache,
        deadlineMs: 10_000,
        pollMs: 5,
        observer: SILENT_OBSERVER,
        servable: (stored) => stored.freshUntil > Date.now(),
      });
    const refresher = flightOf(watched);
    /** Once the refresher has found the lease held: it waits for the holder, or (before the fix) gave up. */
    const refresherMetLease = () =>
      until(() => asked.whetherHeld > 0 || !refresher.has(REQUEST.key), 0);
    return {
      reader: flightOf(new RedisFlightLocks(shared.redis)),
      refresher,
      refresherMetLease,
      locks: new RedisFlightLocks(shared.redis),
    };
  }

  it('makes the refresh itself when the lease holder ends without an answer', async () => {
    const cache = new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 });
    const { reader, refresher, refresherMetLease, locks } = replicas(cache);
    const read = gatedFetch();
    const reading = reader.join(REQUEST, new RequestStats(), read.call);
    await until(() => locks.isHeld(REQUEST.key), 5);

    let refreshCalls = 0;
    refresher.refresh(REQUEST.key, async () => {
      refreshCalls += 1;
      const fresh = entry('refreshed');
      await cache.set(REQUEST.key, fresh);
      return fresh;
    });
    await refresherMetLease();
    // The holder's read is answered without a call (the plan afforded none): no answer is stored.
    read.fetch.open(async () => {
      throw new Error('RATE_LIMITED');
    });
    await expect(reading).rejects.toThrow('RATE_LIMITED');
    await refresher.refreshing(REQUEST.key);

    expect(refreshCalls).toBe(1);
    expect((await cache.get(REQUEST.key))?.value).toBe('refreshed');
    expect(read.fetch.calls).toBe(1);
  });

  it('makes no call when the lease holder stores the answer', async () => {
    const cache = new MemoryCache({ maxEntries: 100, maxBytes: 1_000_000 });
    const { reader, refresher, refresherMetLease, locks } = replicas(cache);
    const read = gatedFetch();
    const reading = reader.join(REQUEST, new RequestStats(), read.call);
    await until(() => locks.isHeld(REQUEST.key), 5);

    let refreshCalls = 0;
    refresher.refresh(REQUEST.key, async () => {
      refreshCalls += 1;
      return entry('refreshed');
    });
    await refresherMetLease();
    const answer = entry('read');
    read.fetch.open(async () => {
      await cache.set(REQUEST.key, answer);
      return answer;
    });
    expect((await reading).value).toBe('read');
    await refresher.refreshing(REQUEST.key);

    expect(refreshCalls).toBe(0);
    expect((await cache.get(REQUEST.key))?.value).toBe('read');
  });
});
