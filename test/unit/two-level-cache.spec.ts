/**
 * The two-level cache alone (src/cache/two-level-cache.ts), on a real
 * in-process L1 and a real Redis L2 (the shared Redis, under a key prefix of
 * each test's own): a fresh, current L1 entry answers by itself; otherwise
 * L2 is asked and its newer entry is copied into L1; an L2 that cannot
 * answer leaves L1's entries, stale ones included, to answer.
 */
import { beforeEach, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/cache.js';
import { MemoryCache } from '../../src/cache/memory-cache.js';
import { RedisCache } from '../../src/cache/redis-cache.js';
import { TwoLevelCache } from '../../src/cache/two-level-cache.js';
import type { CacheLevel } from '../../src/upstream/observer.js';
import { redisPerTest } from '../support/redis-per-test.js';

const MINUTE_MS = 60_000;

const shared = redisPerTest();
let l1: MemoryCache;
let l2: RedisCache;
let lookups: [CacheLevel, boolean][];

beforeEach(() => {
  lookups = [];
  l1 = new MemoryCache({
    maxEntries: 100,
    maxBytes: 1_000_000,
    observer: { cacheLookup: (level, hit) => lookups.push([level, hit]) },
  });
  l2 = new RedisCache(shared.redis);
});

/** Stored `ageMs` ago on the real clock, fresh for a minute after that, kept for ten. */
function entry(value: string, ageMs = 0, freshMs = MINUTE_MS): CacheEntry {
  const storedAt = Date.now() - ageMs;
  return {
    outcome: 'value',
    value,
    bytes: 10,
    storedAt,
    freshUntil: storedAt + freshMs,
    staleUntil: storedAt + 10 * MINUTE_MS,
  };
}

/** Past its freshness, within its stale-if-error allowance. */
const staleEntry = (value: string, ageMs = 2 * MINUTE_MS) => entry(value, ageMs, MINUTE_MS);

it('writes both levels, and a fresh L1 entry answers without a look at L2', async () => {
  const cache = new TwoLevelCache(l1, l2);
  await cache.set('/a', entry('first'));
  expect(l1.getNow('/a')?.value).toBe('first');
  expect((await l2.get('/a'))?.value).toBe('first');

  // Another replica stores a newer answer: a fresh L1 entry still answers alone.
  await l2.set('/a', entry('newer'));
  lookups = [];
  expect((await cache.get('/a'))?.value).toBe('first');
  expect(lookups).toEqual([['l1', true]]);
});

it('asks L2 behind a stale L1 entry, and copies a newer one into L1', async () => {
  const cache = new TwoLevelCache(l1, l2);
  l1.setNow('/a', staleEntry('old'));
  await l2.set('/a', entry('newer'));
  lookups = [];
  expect((await cache.get('/a'))?.value).toBe('newer');
  expect(lookups).toEqual([
    ['l1', false],
    ['l2', true],
  ]);
  expect(l1.getNow('/a')?.value).toBe('newer');
});

it('keeps the L1 entry when L2 holds an older one', async () => {
  const cache = new TwoLevelCache(l1, l2);
  await l2.set('/a', staleEntry('older', 5 * MINUTE_MS));
  l1.setNow('/a', staleEntry('recent', 2 * MINUTE_MS));
  expect((await cache.get('/a'))?.value).toBe('recent');
  expect(l1.getNow('/a')?.value).toBe('recent');
});

it('fills L1 from L2 on an L1 miss: the next read needs no round trip', async () => {
  const cache = new TwoLevelCache(l1, l2);
  await l2.set('/a', entry('shared'));
  expect((await cache.get('/a'))?.value).toBe('shared');
  expect(l1.getNow('/a')?.value).toBe('shared');
  lookups = [];
  await cache.get('/a');
  expect(lookups).toEqual([['l1', true]]);
});

it('asks L2 behind a fresh L1 entry of an older data generation', async () => {
  const current = 2;
  const cache = new TwoLevelCache(l1, l2, {
    isCurrent: (cached) => (cached.generation ?? 0) >= current,
  });
  l1.setNow('/a', { ...entry('generation 1', 10_000), generation: 1 });
  await l2.set('/a', { ...entry('generation 2'), generation: 2 });
  const got = await cache.get('/a');
  expect(got?.value).toBe('generation 2');
  expect(got?.generation).toBe(2);
});

it('keeps an entry that is not to be shared out of L2', async () => {
  const cache = new TwoLevelCache(l1, l2, { shared: (stored) => stored.value !== 'private' });
  await cache.set('/mine', entry('private'));
  await cache.set('/ours', entry('public'));
  expect(l1.getNow('/mine')?.value).toBe('private');
  expect(await l2.get('/mine')).toBeUndefined();
  expect((await l2.get('/ours'))?.value).toBe('public');
  expect((await shared.stored()).size).toBe(1);
});

it('deletes from both levels', async () => {
  const cache = new TwoLevelCache(l1, l2);
  await cache.set('/a', entry('value'));
  await cache.delete('/a');
  expect(l1.getNow('/a')).toBeUndefined();
  expect(await l2.get('/a')).toBeUndefined();
  expect(await cache.get('/a')).toBeUndefined();
});

it('serves what L1 holds, stale included, while Redis cannot answer', async () => {
  const errors: unknown[] = [];
  const down = new RedisCache(shared.down(), { onError: (e) => errors.push(e) });
  const cache = new TwoLevelCache(l1, down);
  l1.setNow('/a', staleEntry('stale'));
  expect((await cache.get('/a'))?.value).toBe('stale');
  expect(await cache.get('/missing')).toBeUndefined();
  expect(errors).toHaveLength(2);
});
