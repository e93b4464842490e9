/**
 * Upstream bodies that differ from the assumed shapes anywhere, property-based
 * (fast-check, fixed seed, bounded time): every 200 answer of the simulator is
 * rewritten by one to four random mutations (a value anywhere in the body
 * replaced by any JSON value, or its member removed), under whole pages that
 * read every endpoint family. Every answer stays well-formed: what cannot be
 * read is an UPSTREAM_INVALID_RESPONSE at the field that needed it (or the
 * record is left out with a warning), never a masked internal error. Nothing
 * is cached, so every document reads freshly mutated bodies.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ResponseCache } from '../../src/cache/cache.js';
import { SERVER_KEY, type Stack, startStack } from '../support/stack.js';
import { expectWellFormed } from '../support/well-formed.js';

const SEED = 20_261_124;

/** The upstream answers' cache, keeping nothing: each read goes to the (mutating) upstream. */
const keepsNothing: ResponseCache = {
  get: async () => undefined,
  set: async () => undefined,
  delete: async () => undefined,
};

let stack: Stack;
let pages: string[];
beforeAll(async () => {
  stack = await startStack({
    gateway: { dailyLimit: 1_000_000, responseCache: keepsNothing, answerCache: false, retries: 0 },
  });
  const seed = await stack.query(
    '{ topArtistsByStreams(limit: 1) { artist { slug topSongs { slug album { slug } } } } }',
  );
  const [first] = (seed.body.data?.topArtistsByStreams ?? []) as {
    artist: { slug: string; topSongs: { slug: string; album: { slug: string } | null }[] };
  }[];
  if (first === undefined) throw new Error(`no artist to start from: ${JSON.stringify(seed.body)}`);
  const artist = first.artist.slug;
  const song = first.artist.topSongs[0]?.slug ?? 'none';
  const album = first.artist.topSongs.find((top) => top.album !== null)?.album?.slug ?? 'none';
  pages = [
    `{ artist(slug: "${artist}") { name followers monthlyListeners totalStreams country isAfrobeats
       awards { name won year category } chartPositions { position chart { name territory } }
       topSongs { title slug totalStreams album { title } }
       songs(first: 5) { totalCount edges { cursor node { title releaseDate } } pageInfo { hasNextPage endCursor } }
       history { date dailyStreams totalStreams monthlyListeners }
       milestones { threshold crossedAt metric song { title } } } }`,
    `{ song(slug: "${song}") { title slug totalStreams dailyStreams durationMs releaseDate artist { name }
       featuredArtists { name } album { title tracks { trackNumber song { title } } } history { date dailyStreams } } }`,
    `{ album(slug: "${album}") { title slug albumType releaseDate totalStreams artist { name }
       tracks { trackNumber song { title totalStreams } } } }`,
    `{ topArtistsByStreams(limit: 5) { rank artist { name slug } } topArtistsByListeners(limit: 3) { rank artist { name } }
       topSongs(limit: 5) { rank song { title artist { name } } } }`,
    `{ trendingArtists(limit: 5) { rank momentumScore artist { name } } trendingSongs(limit: 5) { rank momentumScore song { title } } }`,
    `{ recentMilestones(first: 10) { totalCount edges { node { threshold crossedAt artist { name } song { title } } } pageInfo { hasNextPage } } }`,
    `{ charts { name territory latestWeek totalEntries }
       chart(name: "spotify_daily_ng", territory: "NG", limit: 10) { name territory week
         entries { position previousPosition peakPosition weeksOnChart delta trend songTitle artistName song { title } } } }`,
    `{ artists(first: 5) { totalCount edges { node { name slug } } pageInfo { hasNextPage endCursor } }
       albums(first: 5) { totalCount edges { node { title } } } }`,
    `{ searchSongs(title: "a", artistName: "b") { title } }`,
  ];
  // The pages themselves are valid against the schema: what fails below is the upstream's doing.
  for (const page of pages) {
    const answer = await stack.query(page);
    expect(answer.body.errors ?? [], page).toEqual([]);
  }
});
afterAll(async () => {
  await stack.close();
});

interface Mutation {
  /** Which value of the body, counted depth-first (modulo their number). */
  readonly pick: number;
  readonly action: 'replace' | 'remove';
  readonly value: unknown;
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  pick: fc.nat(),
  action: fc.constantFrom('replace', 'replace', 'remove'),
  value: fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom(null, '', 0, -1, -0.5, 1e308, true, [], {}, 'NaN', '1e999', 'x'.repeat(1_000)),
  ),
});

/** `body` with each mutation applied in turn (a fresh copy of its value each time). */
function mutated(body: unknown, mutations: readonly Mutation[]): unknown {
  const root: { body: unknown } = { body };
  for (const { pick, action, value } of mutations) {
    const slots: { parent: Record<string | number, unknown>; key: string | number }[] = [];
    const visit = (parent: Record<string | number, unknown>, key: string | number): void => {
      slots.push({ parent, key });
      const node = parent[key];
      if (Array.isArray(node))
        for (let index = 0; index < node.length; index++) visit(node as never, index);
      else if (node !== null && typeof node === 'object')
        for (const member of Object.keys(node)) visit(node as never, member);
    };
    visit(root, 'body');
    const slot = slots[pick % slots.length]!;
    if (action === 'remove' && !Array.isArray(slot.parent) && slot.parent !== root)
      delete slot.parent[slot.key];
    else slot.parent[slot.key] = structuredClone(value);
  }
  return root.body;
}

it('any page over mutated upstream bodies gets a well-formed answer', async () => {
  let unreadable = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.constantFrom(...pages),
      fc.array(mutation, { minLength: 1, maxLength: 4 }),
      async (page, mutations) => {
        stack.simulator.clearFaults();
        stack.simulator.injectFault({
          kind: 'rewrite',
          rewrite: (body) => mutated(body, mutations),
        });
        const answer = await stack.query(page);
        expectWellFormed(answer, [SERVER_KEY, stack.simulator.url]);
        if (answer.body.errors?.some((e) => e.extensions?.code === 'UPSTREAM_INVALID_RESPONSE'))
          unreadable += 1;
      },
    ),
    { seed: SEED, numRuns: 400, interruptAfterTimeLimit: 15_000, markInterruptAsFailure: false },
  );
  stack.simulator.clearFaults();
  // The mutations did reach the readers: some bodies could not be read at all.
  expect(unreadable).toBeGreaterThan(10);
  const after = await stack.query(pages[0]!);
  expect(after.body.errors ?? []).toEqual([]);
});
