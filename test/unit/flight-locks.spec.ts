/**
 * Single flight alone (src/coordination/): the lone process's locks, which
 * never make a read wait, and awaitPeer, the wait of a replica while another
 * holds the lease, on a real RedisFlightLocks (the shared Redis, under a key
 * prefix of each test's own): it ends with the holder's answer, with nothing
 * once the lease is released or its holder dies, and with the read's own
 * timeout when its deadline passes first.
 */
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { awaitPeer } from '../../src/coordination/flight-locks.js';
import { LocalFlightLocks } from '../../src/coordination/memory-flight-locks.js';
import { RedisFlightLocks } from '../../src/coordination/redis-flight-locks.js';
import { SHARED_REDIS_URL } from '../support/redis.js';
import { redisPerTest } from '../support/redis-per-test.js';
import { until } from '../support/until.js';

const RESOURCE = '/api/v1/artists/a';
const timedOut = () => new Error('timed out');

/** Waits that only the test's own timeout bounds, unless `signal` says otherwise. */
function waitFor(signal = new AbortController().signal) {
  return { pollMs: 5, signal, timedOut };
}

/** `look` for awaitPeer: counts its calls and answers `found.value` once the test sets it. */
function looker<V>() {
  const found: { value: V | undefined; looks: number } = { value: undefined, looks: 0 };
  const look = async () => {
    found.looks += 1;
    return found.value;
  };
  return { found, look };
}

describe('LocalFlightLocks', () => {
  it('gives every caller a lease at once, and never reports one as held', async () => {
    const locks = new LocalFlightLocks();
    const leases = await Promise.all([locks.acquire(), locks.acquire(), locks.acquire()]);
    expect(leases.every((lease) => lease !== undefined)).toBe(true);
    expect(await locks.isHeld()).toBe(false);
    await Promise.all(leases.map((lease) => lease.release()));
    expect(await locks.isHeld()).toBe(false);
  });

  it('makes awaitPeer look once and stop: no peer can be fetching', async () => {
    const { found, look } = looker<string>();
    expect(await awaitPeer(new LocalFlightLocks(), RESOURCE, look, waitFor())).toBeUndefined();
    expect(found.looks).toBe(1);
  });
});

describe('awaitPeer on RedisFlightLocks', () => {
  const shared = redisPerTest();

  it('lets one process take a lease: the others are refused until it is released', async () => {
    const holder = new RedisFlightLocks(shared.redis);
    const other = new RedisFlightLocks(shared.redis);
    const lease = await holder.acquire(RESOURCE);
    expect(lease).toBeDefined();
    expect(await other.acquire(RESOURCE)).toBeUndefined();
    expect(await other.isHeld(RESOURCE)).toBe(true);
    expect([...(await shared.stored()).keys()]).toEqual([expect.stringMatching(/^lock:/)]);
    await lease?.release();
    expect(await other.isHeld(RESOURCE)).toBe(false);
    const next = await other.acquire(RESOURCE);
    expect(next).toBeDefined();
    await next?.release();
  });

  it('waits while the holder fetches, and answers with what it stored', async () => {
    const holder = new RedisFlightLocks(shared.redis);
    const lease = await holder.acquire(RESOURCE);
    const { found, look } = looker<string>();
    const waiting = awaitPeer(new RedisFlightLocks(shared.redis), RESOURCE, look, waitFor());
    await until(() => found.looks >= 2, 0);
    found.value = 'the holder’s answer';
    expect(await waiting).toBe('the holder’s answer');
    await lease?.release();
  });

  it('ends with nothing once the holder releases its lease without an answer', async () => {
    const holder = new RedisFlightLocks(shared.redis);
    const lease = await holder.acquire(RESOURCE);
    const { found, look } = looker<string>();
    let settled = false;
    const waiting = awaitPeer(
      new RedisFlightLocks(shared.redis),
      RESOURCE,
      look,
      waitFor(),
    ).finally(() => {
      settled = true;
    });
    await until(() => found.looks >= 2, 0);
    expect(settled).toBe(false);
    await lease?.release();
    expect(await waiting).toBeUndefined();
  });

  it('ends with nothing once a holder that died loses its lease', async () => {
    // The holder's own connection: closing it stops the renewals, as the death of its process would.
    const holderRedis = new Redis(SHARED_REDIS_URL, { keyPrefix: shared.prefix });
    const lease = await new RedisFlightLocks(holderRedis, 200).acquire(RESOURCE);
    expect(lease).toBeDefined();
    holderRedis.disconnect();
    const { look } = looker<string>();
    const waiter = new RedisFlightLocks(shared.redis);
    expect(await awaitPeer(waiter, RESOURCE, look, waitFor())).toBeUndefined();
    expect(await waiter.isHeld(RESOURCE)).toBe(false);
    // Stops the renewal timer; the release itself cannot reach Redis any more.
    await lease?.release();
  });

  it('gives up with the read’s timeout once its deadline passes first', async () => {
    const lease = await new RedisFlightLocks(shared.redis).acquire(RESOURCE);
    const deadline = new AbortController();
    const { found, look } = looker<string>();
    const waiting = awaitPeer(
      new RedisFlightLocks(shared.redis),
      RESOURCE,
      look,
      waitFor(deadline.signal),
    );
    await until(() => found.looks >= 1, 0);
    deadline.abort();
    await expect(waiting).rejects.toThrow('timed out');
    // Still held: the reader stopped waiting, the holder did not stop fetching.
    expect(await new RedisFlightLocks(shared.redis).isHeld(RESOURCE)).toBe(true);
    await lease?.release();
  });
});
