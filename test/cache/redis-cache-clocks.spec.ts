/**
 * Replicas whose calendars disagree read the same entry the same way: an
 * entry in Redis carries durations and Redis's own time, never the writer's
 * instants (src/cache/redis-cache.ts). Two stores on the shared Redis, their
 * calendars 30 s apart, each way round; and calendars days away from
 * Redis's, which decides how long an entry lives.
 */
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CacheEntry } from '../../src/cache/cache.js';
import { RedisCache } from '../../src/cache/redis-cache.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';

const DAY_MS = 86_400_000;
const FRESH_MS = 60_000;
const KEPT_MS = 600_000;

let redis: Redis;
/** Unprefixed: sees the test's keys as Redis holds them. */
let admin: Redis;
let prefix: string;
beforeAll(() => {
  prefix = uniquePrefix();
  redis = new Redis(SHARED_REDIS_URL, { keyPrefix: prefix });
  admin = new Redis(SHARED_REDIS_URL);
});
afterEach(async () => {
  await deleteUnder(admin, prefix);
});
afterAll(() => {
  redis.disconnect();
  admin.disconnect();
});

/** A calendar `offsetMs` away from the real one. */
const calendar = (offsetMs: number) => () => Date.now() + offsetMs;

function entryAt(now: number, ageMs = 0): CacheEntry {
  return {
    outcome: 'value',
    value: { name: 'Asake' },
    bytes: 20,
    storedAt: now - ageMs,
    freshUntil: now - ageMs + FRESH_MS,
    staleUntil: now - ageMs + KEPT_MS,
  };
}

/** How long an entry has left to be fresh and kept, and how old it is, on the reader's own calendar. */
function lifeLeft(entry: CacheEntry | undefined, now: number) {
  if (entry === undefined) throw new Error('entry missing');
  return {
    fresh: entry.freshUntil - now,
    kept: entry.staleUntil - now,
    age: now - entry.storedAt,
  };
}

describe.each([
  ['the writer 30 s ahead of the reader', 30_000, 0],
  ['the writer 30 s behind the reader', 0, 30_000],
])('%s', (_, writerOffset, readerOffset) => {
  it('both see the same freshness left, the same age, the same retention', async () => {
    const writerNow = calendar(writerOffset);
    const readerNow = calendar(readerOffset);
    const writer = new RedisCache(redis, { now: writerNow });
    const reader = new RedisCache(redis, { now: readerNow });

    await writer.set('/api/v1/artists/asake', entryAt(writerNow(), 5_000));
    const asWriter = lifeLeft(await writer.get('/api/v1/artists/asake'), writerNow());
    const asReader = lifeLeft(await reader.get('/api/v1/artists/asake'), readerNow());

    // Within the few ms between the reads, never the 30 s between the calendars.
    for (const [seen, expected] of [
      [asReader.fresh, FRESH_MS - 5_000],
      [asReader.kept, KEPT_MS - 5_000],
      [asReader.age, 5_000],
      [asWriter.fresh, FRESH_MS - 5_000],
    ] as const) {
      expect(Math.abs(seen - expected)).toBeLessThan(1_000);
    }
  });
});

describe.each([
  ['3 days behind', -3 * DAY_MS],
  ['400 days ahead', 400 * DAY_MS],
])("a calendar %s Redis's", (_, offset) => {
  it('keeps an entry as long as it asked, no longer', async () => {
    const now = calendar(offset);
    const cache = new RedisCache(redis, { now });
    await cache.set('/api/v1/songs/calm-down', entryAt(now()));

    expect(lifeLeft(await cache.get('/api/v1/songs/calm-down'), now()).fresh).toBeGreaterThan(
      FRESH_MS - 1_000,
    );
    const ttls = [...(await keysUnder(admin, prefix)).values()];
    expect(ttls).toHaveLength(1);
    expect(ttls[0]).toBeGreaterThan(KEPT_MS - 1_000);
    expect(ttls[0]).toBeLessThanOrEqual(KEPT_MS);
  });
});
