/**
 * The generation stores alone (src/freshness/), memory and Redis side by
 * side, Redis the shared one under a key prefix of each test's own. The
 * first poll ever sets the baseline, a page with an id never seen makes a
 * new generation and names that id once, a store that lost its data never
 * goes back behind the generation its caller knew, and ids are remembered
 * up to KNOWN_IDS_LIMIT.
 */
import { describe, expect, it } from 'vitest';
import {
  CHANGES_KEPT,
  type GenerationStore,
  KNOWN_IDS_LIMIT,
  milestonesUnchangedSince,
  type PolledMilestone,
  seenOn,
} from '../../src/freshness/generation.js';
import { MemoryGenerationStore } from '../../src/freshness/memory-generation-store.js';
import { RedisGenerationStore } from '../../src/freshness/redis-generation-store.js';
import { redisPerTest } from '../support/redis-per-test.js';

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

/** A poll's page of milestones by id, each of the artist `artist-<id>`. */
const page = (...ids: string[]): PolledMilestone[] =>
  ids.map((id) => ({ id, artist: `artist-${id}` }));

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
    const first = await store.advance(page('m1', 'm2'), seenAt(0), 0);
    expect(first).toEqual({ generation: { id: 0, seenAt: seenAt(0) }, newIds: [] });
    expect(await store.load()).toEqual({ id: 0, seenAt: seenAt(0) });
  });

  it('starts from the generation its caller knew when it has lost its data', async () => {
    const { store } = open();
    const advance = await store.advance(page('m1'), seenAt(0), 7);
    expect(advance).toEqual({ generation: { id: 7, seenAt: seenAt(0) }, newIds: [] });
  });

  it('makes a new generation for a page with new ids, naming them in page order', async () => {
    const { store } = open();
    await store.advance(page('m1', 'm2'), seenAt(0), 0);
    const same = await store.advance(page('m2', 'm1'), seenAt(1), 0);
    expect(same).toEqual({ generation: { id: 0, seenAt: seenAt(0) }, newIds: [] });

    const changed = await store.advance(page('m4', 'm1', 'm3', 'm2'), seenAt(2), 0);
    // A refresh seen is stamped with how long before it the poll before it ran; the baseline is not.
    const generation = {
      id: 1,
      seenAt: seenAt(2),
      seenWithinMs: 1_000,
      seenBy: 'steady',
      milestoneArtists: [{ id: 1, artists: ['artist-m4', 'artist-m3'] }],
    };
    expect(changed).toEqual({ generation, newIds: ['m4', 'm3'] });
    expect(await store.load()).toEqual(generation);

    // An id that left the page and comes back is no news.
    await store.advance(page('m4'), seenAt(3), 0);
    const back = await store.advance(page('m1', 'm4'), seenAt(4), 0);
    expect(back.newIds).toEqual([]);
    expect(back.generation.id).toBe(1);
  });

  it('reports a new id once, however many replicas poll the same page at once', async () => {
    const { store, peer } = open();
    await store.advance(page('m1'), seenAt(0), 0);
    const advances = await Promise.all([
      store.advance(page('m2', 'm1'), seenAt(1), 0),
      peer().advance(page('m2', 'm1'), seenAt(1), 0),
      peer().advance(page('m2', 'm1'), seenAt(1), 0),
    ]);
    expect(advances.flatMap((advance) => advance.newIds)).toEqual(['m2']);
    expect(advances.map((advance) => advance.generation.id)).toEqual([1, 1, 1]);
    expect(await peer().load()).toEqual({
      id: 1,
      seenAt: seenAt(1),
      // Since the poll before it, on the calendar.
      seenWithinMs: 1_000,
      seenBy: 'steady',
      milestoneArtists: [{ id: 1, artists: ['artist-m2'] }],
    });
  });

  it(`remembers the last ${KNOWN_IDS_LIMIT} ids: one pushed out by newer pages is news again`, async () => {
    const { store } = open();
    await store.advance(page('old'), seenAt(0), 0);
    const newer = Array.from({ length: KNOWN_IDS_LIMIT }, (_, i) => `new-${i}`);
    const flood = await store.advance(page(...newer), seenAt(1), 0);
    expect(flood.newIds).toHaveLength(KNOWN_IDS_LIMIT);
    // Every one of those is still remembered; `old` is not.
    expect((await store.advance(page(...newer.slice(-3)), seenAt(2), 0)).newIds).toEqual([]);
    const back = await store.advance(page('old'), seenAt(3), 0);
    expect(back).toEqual({
      generation: { id: 2, seenAt: seenAt(3), seenWithinMs: 1_000, seenBy: 'steady' },
      newIds: ['old'],
    });
  });

  it(`names the artists of each generation's new milestones, newest first, for ${CHANGES_KEPT} generations`, async () => {
    const { store } = open();
    await store.advance(page('m0'), seenAt(0), 0);
    for (let poll = 1; poll <= CHANGES_KEPT + 2; poll += 1) {
      // Two new milestones of one artist (named in any case) and one of another, then a known one.
      const milestones = [
        { id: `a${poll}`, artist: `Artist-${poll}` },
        { id: `b${poll}`, artist: `artist-${poll}` },
        { id: `c${poll}`, artist: 'shared' },
        { id: `a${poll - 1}`, artist: `artist-${poll - 1}` },
      ];
      await store.advance(
        poll === 1 ? [...milestones.slice(0, 3), { id: 'm0' }] : milestones,
        seenAt(poll),
        0,
      );
    }
    const loaded = await store.load();
    expect(loaded?.id).toBe(CHANGES_KEPT + 2);
    expect(loaded?.milestoneArtists).toHaveLength(CHANGES_KEPT);
    expect(loaded?.milestoneArtists?.[0]).toEqual({
      id: CHANGES_KEPT + 2,
      artists: [`artist-${CHANGES_KEPT + 2}`, 'shared'],
    });
    expect(loaded?.milestoneArtists?.map((change) => change.id)).toEqual(
      Array.from({ length: CHANGES_KEPT }, (_, i) => CHANGES_KEPT + 2 - i),
    );
  });

  it('starts the history again when a page cannot tell every new milestone’s artist', async () => {
    const { store } = open();
    await store.advance(page('m1'), seenAt(0), 0);
    await store.advance(page('m2', 'm1'), seenAt(1), 0);
    // A new milestone without an artist: whose timeline changed is unknown.
    const anonymous = await store.advance([{ id: 'm3' }, ...page('m2')], seenAt(2), 0);
    expect(anonymous.generation.milestoneArtists).toBeUndefined();
    await store.advance(page('m4', 'm3'), seenAt(3), 0);
    expect((await store.load())?.milestoneArtists).toEqual([{ id: 3, artists: ['artist-m4'] }]);
    // A page of new milestones alone: more may lie past it.
    const flood = await store.advance(page('m5', 'm6'), seenAt(4), 0);
    expect(flood.generation.milestoneArtists).toBeUndefined();
    expect((await store.load())?.milestoneArtists).toBeUndefined();
  });
});

it('keeps the shared generation under one key that expires', async () => {
  await new RedisGenerationStore(shared.redis).advance(page('m1'), seenAt(0), 0);
  const keys = await shared.stored();
  expect([...keys.keys()]).toEqual(['generation']);
  expect([...keys.values()].every((ttl) => ttl > 0)).toBe(true);
});

describe('whether an artist’s milestones changed since a generation', () => {
  const current = {
    id: 5,
    seenAt: new Date().toISOString(),
    milestoneArtists: [
      { id: 5, artists: ['wizkid'] },
      { id: 4, artists: ['tems'] },
      { id: 3, artists: ['rema'] },
    ],
  };

  it('is unchanged when every generation since was told and named someone else', () => {
    expect(milestonesUnchangedSince(2, 'burna-boy', current)).toBe(true);
    expect(milestonesUnchangedSince(4, 'Tems', current)).toBe(true);
    expect(milestonesUnchangedSince(5, 'wizkid', current)).toBe(true);
  });

  it('changed when a generation since named the artist, in any case', () => {
    expect(milestonesUnchangedSince(3, 'Wizkid', current)).toBe(false);
    expect(milestonesUnchangedSince(2, 'rema', current)).toBe(false);
  });

  it('is unknown (changed) past the history, or without a generation', () => {
    expect(milestonesUnchangedSince(1, 'burna-boy', current)).toBe(false);
    expect(milestonesUnchangedSince(undefined, 'burna-boy', current)).toBe(false);
    expect(milestonesUnchangedSince(4, 'burna-boy', { id: 5, seenAt: current.seenAt })).toBe(false);
    expect(milestonesUnchangedSince(4, 'burna-boy', undefined)).toBe(false);
  });
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
