/** The cross-request cache and the per-request DataLoader, counted at the simulator. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const ARTIST_PAGE = `query ($slug: String!) { artist(slug: $slug) {
  name followers awards { name } chartPositions { position chart { name } }
  topSongs { title } songs(first: 5) { totalCount nodes { title } } history { date } milestones { threshold }
} }`;

describe('cache across requests', () => {
  it('answers a repeated query with zero upstream calls', async () => {
    const slug = stack.simulator.data.allArtists()[5]!.slug;
    const before = stack.upstreamCalls();
    const cold = await stack.query(ARTIST_PAGE, { slug });
    const coldCalls = stack.upstreamCalls() - before;
    expect(coldCalls).toBe(4); // profile, songs, history, timeline
    expect(cold.body.extensions?.cost).toMatchObject({ upstreamCalls: 4, cacheHits: 0 });

    // Another document reading the same records: the upstream cache answers, not the response cache.
    const warm = await stack.query(`# warm\n${ARTIST_PAGE}`, { slug });
    expect(stack.upstreamCalls() - before).toBe(4);
    expect(warm.body.data).toEqual(cold.body.data);
    expect(warm.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 4 });
  });

  it('caches not-found answers too', async () => {
    const query = '{ artist(slug: "nobody-at-all") { name } }';
    const before = stack.upstreamCalls();
    const first = await stack.query(query);
    const second = await stack.query(query);
    expect(stack.upstreamCalls() - before).toBe(1);
    expect(second.body).toMatchObject({
      data: { artist: null },
      errors: [{ extensions: { code: 'NOT_FOUND' } }],
    });
    expect(second.body.errors?.[0]?.message).toBe(first.body.errors?.[0]?.message);
  });

  it('shares one page between different limits of the same list', async () => {
    const before = stack.upstreamCalls();
    await stack.query('{ topArtistsByListeners(limit: 5) { rank } }');
    await stack.query('{ topArtistsByListeners(limit: 50) { rank } }');
    await stack.query('{ topArtistsByListeners { rank } }');
    expect(stack.upstreamCalls() - before).toBe(1);
    expect(stack.simulator.calls.at(-1)!.query).toMatchObject({ limit: '100' });
  });
});

describe('DataLoader within a request', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('fetches each distinct artist of a milestone list once, however many milestones name it', async () => {
    const milestones = stack.simulator.data
      .recentMilestones({ page: 1, limit: 100 })
      .data.slice(0, 40);
    const distinct = new Set(milestones.map((m) => m.artistSlug));
    expect(distinct.size).toBeLessThan(milestones.length); // the point of the test: repeats exist

    const response = await stack.query(
      '{ recentMilestones(first: 40) { nodes { artist { slug followers } } } }',
    );
    expect(response.body.errors).toBeUndefined();
    const calls = stack.simulator.calls.map((c) => c.segments.slice(2).join('/'));
    expect(calls.filter((path) => path.startsWith('artists/')).sort()).toEqual(
      [...distinct].map((slug) => `artists/${slug}`).sort(),
    );
    expect(calls).toHaveLength(1 + distinct.size);
    expect(response.body.extensions?.cost).toMatchObject({
      deduplicated: milestones.length - distinct.size,
    });
  });

  it('needs no call at all for what the milestone already says about its artist', async () => {
    await stack.query('{ recentMilestones(first: 10) { nodes { id } } }');
    const before = stack.upstreamCalls();
    const response = await stack.query(
      '{ recentMilestones(first: 10) { nodes { artist { slug name imageUrl isAfrobeats } song { title } } } }',
    );
    expect(response.body.errors).toBeUndefined();
    expect(stack.upstreamCalls()).toBe(before);
  });
});
