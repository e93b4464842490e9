/**
 * The popularity seam (issue 15), both stores side by side: counts per
 * record, ranks and the most asked, and the daily decay that lets
 * yesterday's favourites give way. Redis is the real one, under a prefix of
 * this test's own; the stores' calendar is Redis's, days behind it or a year
 * ahead, and Redis keeps each day's set two days past its end, no longer.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryPopularity } from '../../src/economy/memory-popularity.js';
import type { Popularity } from '../../src/economy/popularity.js';
import { RedisPopularity } from '../../src/economy/redis-popularity.js';
import { CALENDARS_AGAINST_REDIS, DAY_MS, todayAtUtc } from '../support/calendar.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';

const prefix = uniquePrefix();
const redis = new Redis(SHARED_REDIS_URL, { keyPrefix: prefix });
const cleaner = new Redis(SHARED_REDIS_URL);
afterAll(async () => {
  const ttls = [...(await keysUnder(cleaner, prefix)).values()];
  expect(ttls.length).toBeGreaterThan(0);
  // At noon: the rest of the day and two more, however far the stores' calendar is from Redis's.
  expect(ttls.filter((ttl) => ttl <= 0 || ttl > 2.5 * DAY_MS)).toEqual([]);
  await deleteUnder(cleaner, prefix);
  redis.disconnect();
  cleaner.disconnect();
});

const cases = CALENDARS_AGAINST_REDIS.flatMap(([when, offset]) => {
  const start = todayAtUtc(12) + offset;
  const calendar = { day: start, start };
  const now = () => new Date(calendar.day);
  /** The memory store lives as long as its process: one instance for all three tests. */
  const memory = new MemoryPopularity(now);
  const stores: [string, string, typeof calendar, () => Popularity, Settle][] = [
    ['memory', when, calendar, () => memory, async (store) => store],
    [
      'redis',
      when,
      calendar,
      () => new RedisPopularity(redis, now),
      // Counts leave once a second; close() sends them now. A fresh instance reads what was sent.
      async (store) => {
        await store.close();
        return new RedisPopularity(redis, now);
      },
    ],
  ];
  return stores;
});
type Settle = (store: Popularity) => Promise<Popularity>;

describe.each(cases)('popularity in %s, %s', (_, __, calendar, create, settled) => {
  it('ranks records by how often they were asked, and names the most asked', async () => {
    calendar.day = calendar.start;
    const store = create();
    for (let i = 0; i < 5; i++) store.record(['/a']);
    for (let i = 0; i < 3; i++) store.record(['/b']);
    store.record(['/c', '/b']);
    const read = await settled(store);
    expect(await read.count('/a')).toBe(5);
    expect(await read.count('/b')).toBe(4);
    expect([await read.rank('/a'), await read.rank('/b'), await read.rank('/c')]).toEqual([
      0, 1, 2,
    ]);
    // Never asked: after every counted record.
    expect(await read.rank('/never')).toBe(3);
    expect(await read.top(2)).toEqual(['/a', '/b']);
    await read.close();
  });

  it('carries yesterday’s counts over at 70 %: today’s views soon outweigh them', async () => {
    calendar.day += DAY_MS;
    const store = create();
    // Before anything is counted today, yesterday's order still answers.
    expect(await store.top(1)).toEqual(['/a']);
    for (let i = 0; i < 3; i++) store.record(['/c']);
    const read = await settled(store);
    expect(await read.count('/a')).toBeCloseTo(3.5);
    expect(await read.count('/c')).toBeCloseTo(3.7);
    expect(await read.top(3)).toEqual(['/c', '/a', '/b']);
    await read.close();
  });

  it('forgets a record the upstream does not have, its carried-over and unsent counts too', async () => {
    const store = create();
    store.record(['/a', '/gone']);
    await store.forget('/a');
    await store.forget('/gone');
    const read = await settled(store);
    expect(await read.count('/a')).toBe(0);
    expect(await read.count('/gone')).toBe(0);
    expect(await read.top(3)).toEqual(['/c', '/b']);
    await read.close();
  });
});
