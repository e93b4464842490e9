/**
 * The cost limit holds at run time (issue 10, item 4): whatever the upstream's
 * data holds, one request makes at most MAX_UPSTREAM_COST real upstream
 * calls. Reads past the cap fail with QUERY_TOO_COSTLY at their own field and
 * everything read before stays; cache hits and shared reads cost nothing.
 * The simulator's fault injection serves records larger than the estimate
 * assumes (an album of 150 tracks, a song with 60 featured artists).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { SongSummary } from '../../src/simulator/types.js';
import { useCostStacks } from '../support/cost-stacks.js';
import type { GraphQLResponse, Stack } from '../support/stack.js';

const stacks = useCostStacks(10);
let stack: Stack;
let strict: Stack;
beforeAll(() => {
  ({ stack, strict } = stacks);
});
afterEach(() => stack.simulator.clearFaults());

/** `count` distinct real songs, from the top artists down. */
function realSongs(count: number): SongSummary[] {
  const songs: SongSummary[] = [];
  for (const artist of stack.simulator.data.allArtists()) {
    songs.push(...(stack.simulator.data.songsOfArtist(artist.slug) ?? []));
    if (songs.length >= count) return songs.slice(0, count);
  }
  throw new Error(`the simulator has fewer than ${count} songs`);
}

/** Serves, at the URL of the `index`-th album (one per test: the gateway caches albums), the album with `tracks`. */
function serveAlbumWithTracks(index: number, tracks: readonly SongSummary[]): string {
  const data = stack.simulator.data;
  const slug = data.albums({ limit: 10 }).data[index]!.slug;
  const album = data.albumBySlug(slug)!;
  const body = {
    ...album,
    trackCount: tracks.length,
    tracks: tracks.map((song, i) => ({ ...song, trackNumber: i + 1 })),
  };
  stack.simulator.injectFault(
    { kind: 'status', status: 200, body },
    { path: `/api/v1/albums/${slug}` },
  );
  return slug;
}

const ALBUM_DURATIONS =
  'query ($slug: String!) { album(slug: $slug) { tracks { trackNumber song { durationMs } } } }';

interface Cost {
  estimated: number;
  upstreamCalls: number;
  cacheHits: number;
  deduplicated: number;
}
const costOf = (response: GraphQLResponse) => response.body.extensions?.cost as Cost;

interface Track {
  trackNumber: number;
  song: { durationMs: number | null } | null;
}
const tracksOf = (response: GraphQLResponse) =>
  (response.body.data!.album as { tracks: Track[] }).tracks;

describe('run-time upstream-call cap (MAX_UPSTREAM_COST)', () => {
  it('an album of 150 tracks, each song read: 100 calls, then QUERY_TOO_COSTLY at each further song; a second run pays only the rest', async () => {
    const songs = realSongs(150);
    const slug = serveAlbumWithTracks(0, songs);
    const before = stack.simulator.calls.length;

    const first = await stack.query(ALBUM_DURATIONS, { slug });
    expect(first.status).toBe(200);
    expect(costOf(first).estimated).toBeLessThanOrEqual(100);
    expect(costOf(first).upstreamCalls).toBe(100);
    expect(stack.simulator.calls.length - before).toBe(100);

    const tracks = tracksOf(first);
    expect(tracks).toHaveLength(150);
    const read = tracks.filter((track) => track.song?.durationMs != null);
    expect(read).toHaveLength(99);
    const readSlugs = new Set(read.map((track) => songs[track.trackNumber - 1]!.slug));
    for (const track of read)
      expect(track.song?.durationMs).toBe(
        stack.simulator.data.songBySlug(songs[track.trackNumber - 1]!.slug)!.durationMs,
      );

    const errors = first.body.errors ?? [];
    expect(errors).toHaveLength(51);
    for (const error of errors) {
      expect(error.extensions).toEqual({ code: 'QUERY_TOO_COSTLY', maximum: 100 });
      expect(error.path).toEqual(['album', 'tracks', expect.any(Number), 'song', 'durationMs']);
      expect(error.message).toContain('maximum of 100 upstream calls');
    }
    // Every track is there; only the refused fields are null, at their own place.
    const refused = new Set(errors.map((error) => error.path![2]));
    for (const [index, track] of tracks.entries()) {
      expect(track.song?.durationMs === null).toBe(refused.has(index));
    }

    // The cap is per request, and what is cached costs nothing: the same query again reads only the 51 missing songs.
    const second = await stack.query(ALBUM_DURATIONS, { slug });
    expect(second.body.errors).toBeUndefined();
    expect(costOf(second)).toMatchObject({ upstreamCalls: 51, cacheHits: 100 });
    const fetched = stack.simulator.calls.slice(before + 100).map((call) => call.segments.slice(2));
    expect(fetched).toHaveLength(51);
    for (const [resource, songSlug] of fetched) {
      expect(resource).toBe('songs');
      expect(readSlugs.has(songSlug!)).toBe(false);
    }
  });

  it('de-duplicated reads are free: 150 tracks of 60 distinct songs make 61 calls and no error', async () => {
    const distinct = realSongs(210).slice(150);
    const slug = serveAlbumWithTracks(
      1,
      Array.from({ length: 150 }, (_, i) => distinct[i % distinct.length]!),
    );
    const before = stack.simulator.calls.length;
    const response = await stack.query(ALBUM_DURATIONS, { slug });
    expect(response.body.errors).toBeUndefined();
    expect(tracksOf(response).every((track) => track.song?.durationMs != null)).toBe(true);
    expect(costOf(response)).toMatchObject({ upstreamCalls: 61, deduplicated: 90 });
    expect(stack.simulator.calls.length - before).toBe(61);
  });

  it('a song with 60 featured artists under MAX_UPSTREAM_COST = 10: 10 calls, the rest QUERY_TOO_COSTLY, siblings kept', async () => {
    const data = stack.simulator.data;
    const song = data.songBySlug(realSongs(1)[0]!.slug)!;
    const featured = data
      .allArtists()
      .slice(100, 160)
      .map((artist) => ({ slug: artist.slug, name: artist.name }));
    stack.simulator.injectFault(
      { kind: 'status', status: 200, body: { ...song, featuredArtists: featured } },
      { path: `/api/v1/songs/${song.slug}` },
    );
    const before = stack.simulator.calls.length;
    const response = await strict.query(
      'query ($slug: String!) { song(slug: $slug) { title featuredArtists { name followers } } apiUsage { dailyLimit } }',
      { slug: song.slug },
    );
    expect(costOf(response).estimated).toBeLessThanOrEqual(10);
    expect(costOf(response).upstreamCalls).toBe(10);
    expect(stack.simulator.calls.length - before).toBe(10);

    const answered = response.body.data!.song as {
      title: string;
      featuredArtists: { name: string; followers: number | null }[];
    };
    expect(answered.title).toBe(song.title);
    expect(answered.featuredArtists.map((artist) => artist.name)).toEqual(
      featured.map((artist) => artist.name),
    );
    const withFollowers = answered.featuredArtists.filter((artist) => artist.followers !== null);
    expect(withFollowers).toHaveLength(9);
    for (const artist of withFollowers) {
      const slug = featured.find((f) => f.name === artist.name)!.slug;
      expect(artist.followers).toBe(data.artistBySlug(slug)!.followers);
    }
    expect(response.body.data?.apiUsage).toEqual({ dailyLimit: 1000 });
    expect(response.body.errors).toHaveLength(51);
    expect(new Set(response.body.errors!.map((error) => error.extensions?.code))).toEqual(
      new Set(['QUERY_TOO_COSTLY']),
    );
  });

  it('retries are real calls: ten artists under a cap of 10, one answering 503 first, get 9 names and QUERY_TOO_COSTLY for its retry', async () => {
    const artists = stack.simulator.data.allArtists().slice(200, 210);
    const victim = artists[0]!.slug;
    stack.simulator.injectFault(
      { kind: 'status', status: 503 },
      { path: `/api/v1/artists/${victim}`, times: 1 },
    );
    const before = stack.simulator.calls.length;
    const fields = artists
      .map((artist, i) => `a${i}: artist(slug: "${artist.slug}") { name }`)
      .join(' ');
    const response = await strict.query(`{ ${fields} }`);
    expect(costOf(response)).toMatchObject({ estimated: 10, upstreamCalls: 10 });
    expect(stack.simulator.calls.length - before).toBe(10);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        path: ['a0'],
        extensions: { code: 'QUERY_TOO_COSTLY', maximum: 10 },
      }),
    ]);
    for (const [i, artist] of artists.slice(1).entries()) {
      expect(response.body.data?.[`a${i + 1}`]).toEqual({ name: artist.name });
    }
  });
});
