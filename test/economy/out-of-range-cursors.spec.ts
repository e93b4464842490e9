/**
 * Cursors are offsets, and a client may send any offset up to the cursor
 * bound. Once a page of a list (one filter) has told the list's length, a
 * cursor at or past the end is answered empty without an upstream call, in
 * every replica that shares the cache; a list never read costs one call for
 * its first such cursor, then nothing.
 */
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectRedis } from '../../src/redis/connection.js';
import { offsetToCursor } from '../../src/schema/connections.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';
import { type Stack, startStack } from '../support/stack.js';

const ARTISTS = 300;

const PAGE = `query ($first: Int, $after: String, $last: Int, $before: String, $afro: Boolean, $sort: ArtistSort) {
  artists(first: $first, after: $after, last: $last, before: $before, isAfrobeats: $afro, sortBy: $sort) {
    totalCount edges { cursor node { slug } }
    pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface ArtistsPage {
  readonly totalCount: number;
  readonly edges: { readonly cursor: string; readonly node: { readonly slug: string } }[];
  readonly pageInfo: Record<string, unknown>;
}

const EMPTY_AT_THE_END = {
  totalCount: ARTISTS,
  edges: [],
  pageInfo: { hasNextPage: false, hasPreviousPage: true, startCursor: null, endCursor: null },
};

/** The page and the upstream calls it cost, counted at the simulator. */
async function page(
  stack: Stack,
  variables: Record<string, unknown>,
): Promise<{ artists: ArtistsPage; calls: number }> {
  const before = stack.upstreamCalls();
  const response = await stack.query(PAGE, variables);
  expect(response.body.errors, JSON.stringify(variables)).toBeUndefined();
  return {
    artists: (response.body.data as { artists: ArtistsPage }).artists,
    calls: stack.upstreamCalls() - before,
  };
}

describe('one gateway', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ simulator: { artists: ARTISTS } });
  });
  afterAll(() => stack.close());

  it('once a page of the list is read, ten distinct offsets past its end cost nothing', async () => {
    expect((await page(stack, { first: 1 })).calls).toBe(1);
    for (let i = 0; i < 10; i++) {
      const after = offsetToCursor(5_000 + i * 1_000);
      const { artists, calls } = await page(stack, { first: 1, after });
      expect(artists).toEqual(EMPTY_AT_THE_END);
      expect(calls, `after offset ${5_000 + i * 1_000}`).toBe(0);
    }
  });

  it('before/last past the end, and after the last item, cost nothing either', async () => {
    for (const variables of [
      { last: 5, before: offsetToCursor(7_000) },
      { last: 5, before: offsetToCursor(ARTISTS) },
      { before: offsetToCursor(12_345) },
      { first: 10, after: offsetToCursor(ARTISTS - 1) },
    ]) {
      const { artists, calls } = await page(stack, variables);
      expect(artists, JSON.stringify(variables)).toEqual(EMPTY_AT_THE_END);
      expect(calls, JSON.stringify(variables)).toBe(0);
    }
  });

  it('a list never read: its first cursor past the end costs one call, the next ones none', async () => {
    const first = await page(stack, { afro: false, first: 3, after: offsetToCursor(40_000) });
    expect(first.calls).toBe(1);
    const total = first.artists.totalCount;
    expect(total).toBe(stack.simulator.data.allArtists().filter((a) => !a.isAfrobeats).length);
    expect(first.artists.edges).toEqual([]);
    for (const offset of [50_000, 60_000, total]) {
      const next = await page(stack, { afro: false, first: 3, after: offsetToCursor(offset) });
      expect(next.artists).toMatchObject({ totalCount: total, edges: [] });
      expect(next.calls, `after offset ${offset}`).toBe(0);
    }
  });

  it('counting back from the end of a list of known length reads only the pages of the window', async () => {
    // Page 2 tells the length; page 1 is not needed to count back from the end.
    expect((await page(stack, { sort: 'NAME', first: 1, after: offsetToCursor(150) })).calls).toBe(
      1,
    );
    stack.simulator.resetCalls();
    const { artists, calls } = await page(stack, { sort: 'NAME', last: 25 });
    expect(artists.edges).toHaveLength(25);
    expect(artists.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(calls).toBe(1);
    expect(stack.simulator.calls.map((call) => call.query.page)).toEqual(['3']);
  });
});

describe('replicas sharing Redis', () => {
  const prefix = uniquePrefix();
  let redis: Redis;
  let first: Stack;
  let second: Stack;
  beforeAll(async () => {
    redis = new Redis(SHARED_REDIS_URL);
    first = await startStack({
      simulator: { artists: ARTISTS },
      gateway: { redis: await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' })) },
    });
    second = await startStack({
      sharedSimulator: first.simulator,
      gateway: { redis: await connectRedis(SHARED_REDIS_URL, prefix, pino({ level: 'silent' })) },
    });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
    await deleteUnder(redis, prefix);
    redis.disconnect();
  });

  it("a page one replica read tells the other the list's length: its cursors past the end are free", async () => {
    expect((await page(first, { first: 2, after: offsetToCursor(120) })).calls).toBe(1);
    const { artists, calls } = await page(second, { first: 1, after: offsetToCursor(9_999) });
    expect(artists).toEqual(EMPTY_AT_THE_END);
    expect(calls).toBe(0);
  });
});

describe('a new data generation', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ gateway: { refreshPollMs: 3_600_000 } });
  });
  afterAll(() => stack.close());

  const RECENT = `query ($after: String) { recentMilestones(isAfrobeats: true, first: 1, after: $after) {
    totalCount edges { cursor }
  } }`;
  async function recent(offset: number): Promise<{ totalCount: number; calls: number }> {
    const before = stack.upstreamCalls();
    const response = await stack.query(RECENT, { after: offsetToCursor(offset) });
    expect(response.body.errors).toBeUndefined();
    const connection = (response.body.data as { recentMilestones: { totalCount: number } })
      .recentMilestones;
    return { totalCount: connection.totalCount, calls: stack.upstreamCalls() - before };
  }

  it('a length learnt before the refresh is not trusted: the list may have grown', async () => {
    await stack.gateway.refreshPoll!.pollNow();
    const before = await recent(50_000);
    expect(before.calls).toBe(1);
    expect((await recent(60_000)).calls).toBe(0);

    const afro = stack.simulator.data.allArtists().find((artist) => artist.isAfrobeats)!;
    stack.simulator.publishMilestone(afro.slug);
    await stack.gateway.refreshPoll!.pollNow();

    // One call learns the new length, then cursors past it are free again.
    expect(await recent(70_000)).toEqual({ totalCount: before.totalCount + 1, calls: 1 });
    expect(await recent(80_000)).toEqual({ totalCount: before.totalCount + 1, calls: 0 });
  });
});
