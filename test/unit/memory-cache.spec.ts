/**
 * The in-process LRU alone (src/cache/memory-cache.ts): bounded by entry
 * count and by approximate bytes, the least recently used going first, and
 * never answering with an entry past its stale-if-error allowance, however
 * long lru-cache itself would have kept it.
 */
import { describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/cache.js';
import { isFresh, MemoryCache } from '../../src/cache/memory-cache.js';
import type { CacheLevel } from '../../src/upstream/observer.js';
import { until } from '../support/until.js';

const MINUTE_MS = 60_000;

/** Fresh for a minute, kept for ten, `bytes` of body: the instants are the real clock's. */
function entry(value: string, bytes = 10, overrides: Partial<CacheEntry> = {}): CacheEntry {
  const now = Date.now();
  return {
    outcome: 'value',
    value,
    bytes,
    storedAt: now,
    freshUntil: now + MINUTE_MS,
    staleUntil: now + 10 * MINUTE_MS,
    ...overrides,
  };
}

const roomy = { maxEntries: 1_000, maxBytes: 100_000_000 };

async function valuesOf(cache: MemoryCache, keys: string[]): Promise<unknown[]> {
  return Promise.all(keys.map(async (key) => (await cache.get(key))?.value));
}

describe('bounded by entries', () => {
  it('keeps at most maxEntries, dropping the least recently used', async () => {
    const cache = new MemoryCache({ ...roomy, maxEntries: 3 });
    await cache.set('a', entry('A'));
    await cache.set('b', entry('B'));
    await cache.set('c', entry('C'));
    // Reading `a` makes `b` the least recently used.
    expect((await cache.get('a'))?.value).toBe('A');
    await cache.set('d', entry('D'));
    expect(await valuesOf(cache, ['a', 'b', 'c', 'd'])).toEqual(['A', undefined, 'C', 'D']);
  });
});

describe('bounded by bytes', () => {
  // Each entry costs its body, its key and 256 bytes of bookkeeping: 1 + 1_000 + 256 here.
  const cost = 1 + 1_000 + 256;

  it('keeps only as many entries as their bytes allow, whatever maxEntries says', async () => {
    const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 2 * cost + 10 });
    await cache.set('a', entry('A', 1_000));
    await cache.set('b', entry('B', 1_000));
    expect(await valuesOf(cache, ['a', 'b'])).toEqual(['A', 'B']);
    await cache.set('c', entry('C', 1_000));
    expect(await valuesOf(cache, ['a', 'b', 'c'])).toEqual([undefined, 'B', 'C']);
  });

  it('counts the bookkeeping of small entries too: many empty bodies still fill it', async () => {
    const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 10 * 300 });
    for (let i = 0; i < 20; i++) await cache.set(`k${i}`, entry(`v${i}`, 0));
    const kept = (
      await valuesOf(
        cache,
        [...Array(20).keys()].map((i) => `k${i}`),
      )
    ).filter((value) => value !== undefined);
    // 256 bytes of bookkeeping and a 2-3 character key each: ten fit in 3,000 bytes, not twenty.
    expect(kept.length).toBeLessThanOrEqual(11);
    expect(kept.length).toBeGreaterThanOrEqual(10);
    expect(kept.at(-1)).toBe('v19');
  });

  it('counts an entry weighed again at its new weight, and leaves any other entry of its key alone', async () => {
    const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 2 * cost + 10 });
    await cache.set('a', entry('A', 1_000));
    await cache.set('b', entry('B', 1_000));
    // Grown past what both can share: the other one goes, the entry just weighed being the most recent.
    cache.reweigh('b', entry('B', 1_500));
    expect(await valuesOf(cache, ['a', 'b'])).toEqual([undefined, 'B']);
    // Only the very entry stored under the key is weighed again, not one that replaced it.
    const c = entry('C', 10);
    await cache.set('c', c);
    cache.reweigh('c', entry('other', 2_000));
    expect(cache.getNow('c')).toBe(c);
    expect(cache.getNow('b')?.value).toBe('B');
  });

  it('keeps an entry weighed again for no longer than it was kept before', async () => {
    const cache = new MemoryCache(roomy);
    const now = Date.now();
    const short = entry('V', 10, { freshUntil: now + 50, staleUntil: now + 50 });
    await cache.set('k', short);
    cache.reweigh('k', { ...short, bytes: 20 });
    expect(cache.getNow('k')?.bytes).toBe(20);
    await until(() => cache.getNow('k') === undefined);
  });

  it('keeps no entry larger than the whole bound', async () => {
    const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 1_000 });
    await cache.set('small', entry('S', 10));
    await cache.set('huge', entry('H', 5_000));
    expect(await valuesOf(cache, ['small', 'huge'])).toEqual(['S', undefined]);
  });
});

describe('staleness', () => {
  it('serves an entry past its freshness until staleUntil (stale-if-error)', async () => {
    const cache = new MemoryCache(roomy);
    const now = Date.now();
    await cache.set('k', entry('V', 10, { storedAt: now - MINUTE_MS, freshUntil: now - 1 }));
    const got = await cache.get('k');
    expect(got?.value).toBe('V');
    expect(isFresh(got)).toBe(false);
  });

  it('drops an entry once past staleUntil, though its retention would keep it longer', async () => {
    const cache = new MemoryCache(roomy);
    const now = Date.now();
    // Stored ten minutes ago: lru-cache's own ttl (staleUntil - storedAt) counts from now, so only
    // the check of staleUntil can tell this entry has run out.
    await cache.set(
      'k',
      entry('V', 10, {
        storedAt: now - 10 * MINUTE_MS,
        freshUntil: now - 5 * MINUTE_MS,
        staleUntil: now - 1,
      }),
    );
    expect(cache.getNow('k')).toBeUndefined();
    expect(await cache.get('k')).toBeUndefined();
  });

  it('stops answering with an entry when its staleUntil passes', async () => {
    const cache = new MemoryCache(roomy);
    const now = Date.now();
    const staleUntil = now + 50;
    await cache.set('k', entry('V', 10, { freshUntil: now, staleUntil }));
    expect(cache.getNow('k')?.value).toBe('V');
    await until(() => Date.now() > staleUntil, 0);
    expect(cache.getNow('k')).toBeUndefined();
  });
});

it('tells its observer of every lookup at L1, and whether it found a fresh entry', async () => {
  const lookups: [CacheLevel, boolean][] = [];
  const cache = new MemoryCache({
    ...roomy,
    observer: { cacheLookup: (level, hit) => lookups.push([level, hit]) },
  });
  const now = Date.now();
  await cache.set('fresh', entry('F'));
  await cache.set('stale', entry('S', 10, { freshUntil: now - 1 }));
  await cache.get('fresh');
  await cache.get('stale');
  await cache.get('missing');
  // getNow is the two-level cache's: it reports lookups itself.
  cache.getNow('fresh');
  expect(lookups).toEqual([
    ['l1', true],
    ['l1', false],
    ['l1', false],
  ]);
});

it('forgets a deleted entry', async () => {
  const cache = new MemoryCache(roomy);
  await cache.set('k', entry('V'));
  await cache.delete('k');
  expect(await cache.get('k')).toBeUndefined();
});
