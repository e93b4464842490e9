/**
 * The popularity seam (issue 15), both stores side by side: counts per
 * record, ranks and the most asked, and the daily decay that lets
 * yesterday's favourites give way, and demand by hour for the day's pacing. Redis is the real one, under a prefix of
 * this test's own; the stores' calendar is Redis's, days behind it or a year
 * ahead, and Redis keeps each day's set two days past its end, no longer.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryPopularity } from '../../src/economy/memory-popularity.js';
import { DAILY_DECAY, type Popularity } from '../../src/economy/popularity.js';
import { RedisPopularity } from '../../src/economy/redis-popularity.js';
import { CALENDARS_AGAINST_REDIS, DAY_MS, todayAtUtc } from '../support/calendar.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';

const HOUR_MS = 3_600_000;

const prefix = uniquePrefix();
/** One connection per calendar, each under a prefix of its own: the calendars' days must not meet. */
const connections: Redis[] = [];
const connectionUnder = (calendar: string): Redis => {
  const connection = new Redis(SHARED_REDIS_URL, { keyPrefix: `${prefix}${calendar}:` });
  connections.push(connection);
  return connection;
};
const cleaner = new Redis(SHARED_REDIS_URL);
afterAll(async () => {
  const ttls = [...(await keysUnder(cleaner, prefix)).values()];
  expect(ttls.length).toBeGreaterThan(0);
  // The rest of the day (a day at most: one test sends just past midnight) and two more, however
  // far the stores' calendar is from Redis's.
  expect(ttls.filter((ttl) => ttl <= 0 || ttl > 3 * DAY_MS)).toEqual([]);
  await deleteUnder(cleaner, prefix);
  for (const connection of connections) connection.disconnect();
  cleaner.disconnect();
});

const cases = CALENDARS_AGAINST_REDIS.flatMap(([when, offset]) => {
  const start = todayAtUtc(12) + offset;
  const calendar = { day: start, start };
  const now = () => new Date(calendar.day);
  /** The memory store lives as long as its process: one instance for all three tests. */
  const memory = new MemoryPopularity(now);
  const redis = connectionUnder(String(offset));
  const stores: [string, string, typeof calendar, () => Popularity, Settle][] = [
    ['memory', when, calendar, () => memory, async (store) => store],
    [
      'redis',
      when,
      calendar,
      () => new RedisPopularity(redis, now),
      // Counts leave every tenth of a second; close() sends them now. A fresh instance reads what was sent.
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

  it('carries yesterday’s counts over at 80 %: today’s views soon outweigh them', async () => {
    calendar.day += DAY_MS;
    const store = create();
    // Before anything is counted today, yesterday's order still answers.
    expect(await store.top(1)).toEqual(['/a']);
    for (let i = 0; i < 4; i++) store.record(['/c']);
    const read = await settled(store);
    expect(await read.count('/a')).toBeCloseTo(4);
    expect(await read.count('/c')).toBeCloseTo(4.8);
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

  it('learns when in the day first touches were asked: by hour, yesterday’s and the day before’s', async () => {
    const hours = (asked: Record<number, number>) =>
      Array.from({ length: 24 }, (_, hour) => asked[hour] ?? 0);
    const dayStart = calendar.start - 12 * HOUR_MS;
    // The first day's ten records were asked at noon as records held: no demand for first touches.
    expect(await create().recentDemandByHour()).toEqual({
      yesterday: hours({}),
      dayBefore: hours({}),
    });
    calendar.day = dayStart + 2 * DAY_MS + 13 * HOUR_MS;
    const store = create();
    store.record(['/a', '/b'], true);
    store.record(['/a']);
    calendar.day += 1.5 * HOUR_MS;
    store.record(['/c'], true);
    store.record(['/a', '/b', '/c']);
    await (await settled(store)).close();
    calendar.day = dayStart + 3 * DAY_MS + 15 * HOUR_MS;
    const next = create();
    next.record(['/d'], true);
    await (await settled(next)).close();
    calendar.day = dayStart + 3 * DAY_MS + 16 * HOUR_MS;
    expect(await create().recentDemandByHour()).toEqual({
      yesterday: hours({ 13: 2, 14: 1 }),
      dayBefore: hours({}),
    });
    calendar.day = dayStart + 4 * DAY_MS + 12 * HOUR_MS;
    expect(await create().recentDemandByHour()).toEqual({
      yesterday: hours({ 15: 1 }),
      dayBefore: hours({ 13: 2, 14: 1 }),
    });
    // Nothing asked on the day before: a first day for the plan (day-shape.ts).
    calendar.day = dayStart + 5 * DAY_MS + 12 * HOUR_MS;
    expect(await create().recentDemandByHour()).toEqual({
      yesterday: hours({}),
      dayBefore: hours({ 15: 1 }),
    });
  });

  it('ranks a record with its own views not sent yet, and records asked as often after each other', async () => {
    // Days later (the last test: the memory store lives on): nothing carried over outweighs these.
    calendar.day += 10 * DAY_MS;
    const store = create();
    for (let i = 0; i < 3; i++) store.record(['/p', '/q']);
    store.record(['/r']);
    const read = await settled(store);
    // Of two records asked as often, each ranks after the other.
    expect([await read.rank('/p'), await read.rank('/q'), await read.rank('/r')]).toEqual([
      1, 1, 2,
    ]);
    // Views of `/r` this process has not sent yet (the one being answered among them) count.
    for (let i = 0; i < 3; i++) read.record(['/r']);
    expect(await read.rank('/r')).toBe(0);
    await read.close();
  });

  it('tells today’s first touches by hour so far, those it has not sent yet included', async () => {
    // Days past the others' (the memory store lives on): a day of its own, at noon (as the others).
    calendar.day += 20 * DAY_MS - (calendar.day % DAY_MS) + 12 * HOUR_MS;
    const hour = 12;
    const hours = (asked: Record<number, number>) =>
      Array.from({ length: 24 }, (_, h) => asked[h] ?? 0);
    const store = create();
    store.record(['/a', '/b'], true);
    store.record(['/a']);
    expect(await store.demandToday()).toEqual(hours({ [hour]: 2 }));
    calendar.day += HOUR_MS;
    const sent = await settled(store);
    sent.record(['/c'], true);
    expect(await sent.demandToday()).toEqual(hours({ [hour]: 2, [hour + 1]: 1 }));
    await (await settled(sent)).close();
    // A new day starts with none.
    calendar.day += DAY_MS;
    expect(await create().demandToday()).toEqual(hours({}));
  });

  it('counts views asked before midnight and sent after it as yesterday’s, carried over', async () => {
    // Days past the others' again, at 23:59: the views wait to be sent as midnight passes.
    calendar.day += 30 * DAY_MS - (calendar.day % DAY_MS) + DAY_MS - 60_000;
    const store = create();
    store.record(['/late', '/late']);
    calendar.day += 2 * 60_000;
    expect(await store.count('/late')).toBeCloseTo(2 * DAILY_DECAY, 10);
    // Sent now, into the new day's set: still yesterday's views, carried over.
    const sent = await settled(store);
    expect(await sent.count('/late')).toBeCloseTo(2 * DAILY_DECAY, 10);
    await sent.close();
  });
});
