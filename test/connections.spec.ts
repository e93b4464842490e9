/** Relay connections over the upstream's pages: forward, backward, across page boundaries, with totals. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ simulator: { artists: 300 } });
});
afterAll(() => stack.close());

const PAGE = `query ($first: Int, $after: String, $last: Int, $before: String) {
  artists(first: $first, after: $after, last: $last, before: $before) {
    totalCount edges { cursor node { slug } } pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
  }
}`;

interface ArtistsPage {
  readonly edges: { readonly node: { readonly slug: string } }[];
  readonly pageInfo: {
    readonly endCursor: string | null;
    readonly startCursor: string | null;
  } & Record<string, unknown>;
  readonly totalCount: number;
}

interface SongsPage {
  readonly totalCount: number;
  readonly nodes: { readonly slug: string }[];
  readonly pageInfo: { readonly endCursor: string; readonly hasNextPage: boolean };
}

async function page(variables: Record<string, unknown>): Promise<ArtistsPage> {
  const response = await stack.query(PAGE, variables);
  expect(response.body.errors).toBeUndefined();
  return (response.body.data as { artists: ArtistsPage }).artists;
}

const allSlugs = () => stack.simulator.data.allArtists().map((a) => a.slug);

describe('artists connection', () => {
  it('pages forward across the upstream page boundary (items 90 to 129) with the total', async () => {
    const slugs = allSlugs();
    expect(slugs.length).toBe(300);
    let after: string | null = null;
    const seen: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await page({ first: 30, after });
      seen.push(...result.edges.map((e) => e.node.slug));
      expect(result.totalCount).toBe(300);
      after = result.pageInfo.endCursor;
    }
    expect(seen).toEqual(slugs.slice(0, 150));
    const last = await page({ first: 40, after });
    expect(last.edges.map((e) => e.node.slug)).toEqual(slugs.slice(150, 190));
    expect(last.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
  });

  it('pages backward with last/before, including from the end', async () => {
    const slugs = allSlugs();
    const tail = await page({ last: 25 });
    expect(tail.edges.map((e) => e.node.slug)).toEqual(slugs.slice(275));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await page({ last: 30, before: tail.pageInfo.startCursor });
    expect(before.edges.map((e) => e.node.slug)).toEqual(slugs.slice(245, 275));
    let cursor = before.pageInfo.startCursor;
    const back: string[] = [];
    while (cursor !== null) {
      const result = await page({ last: 100, before: cursor });
      back.unshift(...result.edges.map((e) => e.node.slug));
      cursor = result.pageInfo.hasPreviousPage ? result.pageInfo.startCursor : null;
    }
    expect(back).toEqual(slugs.slice(0, 245));
  });

  it('ends cleanly past the last item', async () => {
    const end = await page({ first: 10, after: (await page({ last: 1 })).pageInfo.endCursor });
    expect(end.edges).toEqual([]);
    expect(end.pageInfo).toMatchObject({ hasNextPage: false, startCursor: null, endCursor: null });
    expect(end.totalCount).toBe(300);
  });

  it('refuses first/last above 100, negative values and malformed cursors before any upstream call', async () => {
    const cases: Record<string, unknown>[] = [
      { first: 101 },
      { last: -1 },
      { first: -5 },
      { first: 10, after: 'not-a-cursor' },
      { first: 10, after: Buffer.from('offset:-3').toString('base64url') },
      { first: 10, after: Buffer.from('offset:1e3').toString('base64url') },
      { first: 10, after: Buffer.from('offset:9007199254740993').toString('base64url') },
      { last: 10, before: Buffer.from('offset:100000001').toString('base64url') },
      { last: 10, before: 'x'.repeat(10_000) },
    ];
    for (const variables of cases) {
      const before = stack.upstreamCalls();
      const response = await stack.query(PAGE, variables);
      expect(response.body.errors?.[0]?.extensions?.code, JSON.stringify(variables)).toBe(
        'BAD_USER_INPUT',
      );
      expect(response.body.errors?.[0]?.path).toEqual(['artists']);
      expect(stack.upstreamCalls()).toBe(before);
    }
  });
});

describe('songs of an artist', () => {
  it('pages the whole list from one upstream call', async () => {
    const artist = stack.simulator.data.allArtists()[0]!;
    const songs = stack.simulator.data.songsOfArtist(artist.slug)!.map((s) => s.slug);
    const query = `query ($slug: String!, $after: String) { artist(slug: $slug) { songs(first: 4, after: $after) {
      totalCount nodes { slug } pageInfo { endCursor hasNextPage } } } }`;
    const first = await stack.query(query, { slug: artist.slug });
    const firstPage = (first.body.data as { artist: { songs: SongsPage } }).artist.songs;
    const second = await stack.query(query, {
      slug: artist.slug,
      after: firstPage.pageInfo.endCursor,
    });
    const secondPage = (second.body.data as { artist: { songs: SongsPage } }).artist.songs;
    expect(firstPage.totalCount).toBe(songs.length);
    expect([...firstPage.nodes, ...secondPage.nodes].map((n) => n.slug)).toEqual(songs.slice(0, 8));
    expect(second.body.extensions?.cost).toMatchObject({ upstreamCalls: 0 });
  });
});
