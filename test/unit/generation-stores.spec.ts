/**
 * The generation stores alone (src/freshness/), memory and Redis side by
 * side, Redis the shared one under a key prefix of each test's own. The
 * first poll ever sets the baseline, a page with an id never seen makes a
 * new generation and names that id once, a store that lost its data never
 * goes back behind the generation its caller knew, and ids are remembered
 * up to KNOWN_IDS_LIMIT.
 */
import { describe, expect, it } from 'vitest';
import { type GenerationStore, KNOWN_IDS_LIMIT, seenOn } from '../../src/freshness/generation.js';
import { MemoryGenerationStore } from '../../src/freshness/memory-generation-store.js';
import { RedisGenerationStore } from '../../src/freshness/redis-generation-store.js';
import { redisPerTest } from './redis-per-test.js';

const shared = redisPerTest();

/** One store, and `peer()`: another handle on the same data (another replica, for Redis). */
interface Opened {
  readonly store: GenerationStore;
  peer(): GenerationStore;
}

function openMemory(): Opened {
  const store = new MemoryGenerationStore();
  return { store, peer: () => store };
}

function openRedis(): Opened {
  const { redis } = shared;
  return { store: new RedisGenerationStore(redis), peer: () => new RedisGenerationStore(redis) };
}

/** Seen-at instants a second apart, from the real clock: one per poll. */
const start = Date.now();
const seenAt = (poll: number) => new Date(start + poll * 1_000).toISOString();

describe.each([
  ['memory', openMemory],
  ['redis', openRedis],
])('the %s generation store', (_, open) => {
  it('knows no generation before the first poll', async () => {
    expect(await open().store.load()).toBeUndefined();
  });

  it('takes the first page as the baseline: no id is new, the generation is the caller’s', async () => {
    const { store } = open();
    const first = await store.advance(['m1', 'm2'], seenAt(0), 0);
    expect(first).toEqual({ generation: { id: 0, seenAt: seenAt(0) }, newIds: [] });
    expect(await store.load()).toEqual({ id: 0, seenAt: seenAt(0) });
  });

  it('starts from the generation its caller knew when it has lost its data', async () => {
    const { store } = open();
    const advance = await store.advance(['m1'], seenAt(0), 7);
    expect(advance).toEqual({ generation: { id: 7, seenAt: seenAt(0) }, newIds: [] });
  });

  it('makes a new generation for a page with new ids, naming them in page order', async () => {
    const { store } = open();
    await store.advance(['m1', 'm2'], seenAt(0), 0);
    const same = await store.advance(['m2', 'm1'], seenAt(1), 0);
    expect(same).toEqual({ generation: { id: 0, seenAt: seenAt(0) }, newIds: [] });

    const changed = await store.advance(['m4', 'm1', 'm3', 'm2'], seenAt(2), 0);
    expect(changed).toEqual({ generation: { id: 1, seenAt: seenAt(2) }, newIds: ['m4', 'm3'] });
    expect(await store.load()).toEqual({ id: 1, seenAt: seenAt(2) });

    // An id that left the page and comes back is no news.
    await store.advance(['m4'], seenAt(3), 0);
    const back = await store.advance(['m1', 'm4'], seenAt(4), 0);
    expect(back.newIds).toEqual([]);
    expect(back.generation.id).toBe(1);
  });

  it('reports a new id once, however many replicas poll the same page at once', async () => {
    const { store, peer } = open();
    await store.advance(['m1'], seenAt(0), 0);
    const advances = await Promise.all([
      store.advance(['m2', 'm1'], seenAt(1), 0),
      peer().advance(['m2', 'm1'], seenAt(1), 0),
      peer().advance(['m2', 'm1'], seenAt(1), 0),
    ]);
    expect(advances.flatMap((advance) => advance.newIds)).toEqual(['m2']);
    expect(advances.map((advance) => advance.generation.id)).toEqual([1, 1, 1]);
    expect(await peer().load()).toEqual({ id: 1, seenAt: seenAt(1) });
  });

  it(`remembers the last ${KNOWN_IDS_LIMIT} ids: one pushed out by newer pages is news again`, async () => {
    const { store } = open();
    await store.advance(['old'], seenAt(0), 0);
    const newer = Array.from({ length: KNOWN_IDS_LIMIT }, (_, i) => `new-${i}`);
    const flood = await store.advance(newer, seenAt(1), 0);
    expect(flood.newIds).toHaveLength(KNOWN_IDS_LIMIT);
    // Every one of those is still remembered; `old` is not.
    expect((await store.advance(newer.slice(-3), seenAt(2), 0)).newIds).toEqual([]);
    const back = await store.advance(['old'], seenAt(3), 0);
    expect(back).toEqual({ generation: { id: 2, seenAt: seenAt(3) }, newIds: ['old'] });
  });
});

it('keeps the shared generation under one key that expires', async () => {
  await new RedisGenerationStore(shared.redis).advance(['m1'], seenAt(0), 0);
  const keys = await shared.stored();
  expect([...keys.keys()]).toEqual(['generation']);
  expect([...keys.values()].every((ttl) => ttl > 0)).toBe(true);
});

describe('whether a day has seen the upstream’s new data', () => {
  const now = new Date(`${new Date().toISOString().slice(0, 10)}T15:00:00.000Z`);
  const earlierToday = new Date(now.getTime() - 12 * 3_600_000).toISOString();
  const yesterday = new Date(now.getTime() - 24 * 3_600_000).toISOString();

  it('is a change (not the first poll’s baseline) seen on the same UTC day', () => {
    expect(seenOn({ id: 3, seenAt: earlierToday }, now)).toBe(true);
    expect(seenOn({ id: 3, seenAt: yesterday }, now)).toBe(false);
    expect(seenOn({ id: 0, seenAt: earlierToday }, now)).toBe(false);
    expect(seenOn(undefined, now)).toBe(false);
  });
});
