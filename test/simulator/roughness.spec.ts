import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type {
  AlbumRecord,
  AlbumSummary,
  ArtistProfile,
  ArtistSummary,
  ChartListItem,
  ChartResponse,
  MilestoneRecord,
  Page,
  RankedArtist,
  SongRecord,
  SongSummary,
  TrendingArtist,
  TrendingSong,
} from '../../src/simulator/types.js';
import { get, start } from '../support/simulator.js';

const LIMIT = 100_000;
const ARTIST_OPTIONAL = ['imageUrl', 'country', 'dailyStreams'] as const;
const ARTIST_REQUIRED = [
  'id',
  'slug',
  'name',
  'isAfrobeats',
  'totalStreams',
  'monthlyListeners',
] as const;
const SONG_OPTIONAL = ['albumSlug', 'releaseDate', 'imageUrl'] as const;
const SONG_REQUIRED = [
  'id',
  'slug',
  'title',
  'artistSlug',
  'artistName',
  'isAfrobeats',
  'totalStreams',
  'dailyStreams',
] as const;
const MILESTONE_FIELDS = [
  'id',
  'metric',
  'threshold',
  'crossedAt',
  'isAfrobeats',
  'streamValue',
  'artistName',
  'artistSlug',
  'artistImageUrl',
  'songId',
  'songTitle',
];
const CHART_ENTRY_FIELDS = [
  'position',
  'songTitle',
  'artistName',
  'peakPosition',
  'weeksOnChart',
  'trend',
  'delta',
  'prevRank',
];

let rough: Simulator;
let smooth: Simulator;
beforeAll(async () => {
  [rough, smooth] = await Promise.all([
    start({ roughness: true, dailyLimit: LIMIT }),
    start({ dailyLimit: LIMIT }),
  ]);
});
afterAll(async () => {
  await Promise.all([rough.close(), smooth.close()]);
});

const lacking = (records: readonly object[], field: string): number =>
  records.filter((r) => !(field in r)).length;
const hasAll = (record: object, fields: readonly string[]): boolean =>
  fields.every((f) => f in record);
const search = (title: string, artistName: string): string =>
  `/api/v1/songs/search?title=${encodeURIComponent(title)}&artistName=${encodeURIComponent(artistName)}`;

async function body<T>(sim: Simulator, path: string): Promise<T> {
  const reply = await get<T>(sim, path);
  expect(reply.status, path).toBe(200);
  return reply.body;
}

async function allArtists(sim: Simulator): Promise<ArtistSummary[]> {
  const pages = await Promise.all(
    [1, 2, 3].map((page) =>
      body<Page<ArtistSummary>>(sim, `/api/v1/artists?limit=100&page=${page}`),
    ),
  );
  return pages.flatMap((p) => p.data);
}

async function profiles(
  sim: Simulator,
  artists: readonly ArtistSummary[],
): Promise<ArtistProfile[]> {
  return Promise.all(artists.map((a) => body<ArtistProfile>(sim, `/api/v1/artists/${a.slug}`)));
}

/** The artist-summary fields a profile or ranked item carries. */
function artistPart(record: object): object {
  const fields: readonly string[] = [...ARTIST_REQUIRED, ...ARTIST_OPTIONAL];
  return Object.fromEntries(Object.entries(record).filter(([key]) => fields.includes(key)));
}

describe('roughness off (the default): the tidy shapes, nothing missing', () => {
  it('every artist, profile, award, song, trending item and album has all its fields', async () => {
    const artists = await allArtists(smooth);
    expect(artists).toHaveLength(300);
    for (const field of ARTIST_OPTIONAL) expect(lacking(artists, field)).toBe(0);
    const all = await profiles(smooth, artists);
    expect(lacking(all, 'followers')).toBe(0);
    const awards = all.flatMap((p) => p.awards);
    expect(awards.length).toBeGreaterThan(50);
    expect(lacking(awards, 'category') + lacking(awards, 'year')).toBe(0);
    const songs = all.flatMap((p) => p.topSongs);
    for (const field of SONG_OPTIONAL) expect(lacking(songs, field)).toBe(0);
    const records = await Promise.all(
      songs.slice(0, 300).map((s) => body<SongRecord>(smooth, `/api/v1/songs/${s.slug}`)),
    );
    expect(lacking(records, 'durationMs')).toBe(0);
    expect(
      lacking(
        await body<TrendingArtist[]>(smooth, '/api/v1/trending/artists?limit=100'),
        'momentumScore',
      ),
    ).toBe(0);
    expect(
      lacking(
        await body<TrendingSong[]>(smooth, '/api/v1/trending/songs?limit=100'),
        'momentumScore',
      ),
    ).toBe(0);
    const albums = (await body<Page<AlbumSummary>>(smooth, '/api/v1/albums?limit=100')).data;
    expect(lacking(albums, 'trackCount') + lacking(albums, 'imageUrl')).toBe(0);
  });

  it('every chart entry is a catalogue song that search finds', async () => {
    for (const { chartName, chartTerritory } of await body<ChartListItem[]>(
      smooth,
      '/api/v1/charts',
    )) {
      const chart = await body<ChartResponse>(
        smooth,
        `/api/v1/charts/${chartName}/${chartTerritory}`,
      );
      const found = await Promise.all(
        chart.data.map((e) => body<SongSummary[]>(smooth, search(e.songTitle, e.artistName))),
      );
      expect(found.every((songs) => songs.length > 0)).toBe(true);
    }
  });

  it('no artist has two songs of one title', async () => {
    const top = await body<RankedArtist[]>(smooth, '/api/v1/leaderboard/streams?limit=100');
    for (const artist of top) {
      const titles = (await body<SongSummary[]>(smooth, `/api/v1/songs/${artist.slug}/songs`)).map(
        (s) => s.title,
      );
      expect(new Set(titles).size, artist.slug).toBe(titles.length);
    }
  });

  it('milestone ids are the structured, subject-and-tier ids', async () => {
    const recent = await body<Page<MilestoneRecord>>(smooth, '/api/v1/milestones/recent?limit=100');
    expect(recent.data.length).toBeGreaterThan(0);
    for (const m of recent.data) expect(m.id).toMatch(/^ms_(art_\d{5}|song_\d{7})_\d+[mb]$/);
  });
});

describe('roughness on', () => {
  it('about one artist in eight lacks some optional fields, each field somewhere, never a required one', async () => {
    const artists = await allArtists(rough);
    expect(artists).toHaveLength(300);
    for (const field of ARTIST_OPTIONAL) expect(lacking(artists, field), field).toBeGreaterThan(0);
    expect(artists.every((a) => hasAll(a, ARTIST_REQUIRED))).toBe(true);
    const gappy = artists.filter((a) => !hasAll(a, ARTIST_OPTIONAL)).length / artists.length;
    expect(gappy).toBeGreaterThan(0.04);
    expect(gappy).toBeLessThan(0.2);

    const all = await profiles(rough, artists);
    expect(lacking(all, 'followers')).toBeGreaterThan(0);
    const awards = all.flatMap((p) => p.awards);
    expect(lacking(awards, 'category')).toBeGreaterThan(0);
    expect(lacking(awards, 'year')).toBeGreaterThan(0);
    expect(awards.every((a) => hasAll(a, ['name', 'result']))).toBe(true);
  });

  it('songs lack album, release date, image or duration; trending items their score; albums their track count or image', async () => {
    const top = await body<RankedArtist[]>(rough, '/api/v1/leaderboard/streams?limit=30');
    const songs = (
      await Promise.all(top.map((a) => body<SongSummary[]>(rough, `/api/v1/songs/${a.slug}/songs`)))
    ).flat();
    for (const field of SONG_OPTIONAL) expect(lacking(songs, field), field).toBeGreaterThan(0);
    expect(songs.every((s) => hasAll(s, SONG_REQUIRED))).toBe(true);
    const gappy = songs.filter((s) => !hasAll(s, SONG_OPTIONAL)).length / songs.length;
    expect(gappy).toBeGreaterThan(0.04);
    expect(gappy).toBeLessThan(0.2);
    const records = await Promise.all(
      songs.slice(0, 300).map((s) => body<SongRecord>(rough, `/api/v1/songs/${s.slug}`)),
    );
    expect(lacking(records, 'durationMs')).toBeGreaterThan(0);
    expect(records.every((r) => hasAll(r, ['featuredArtists', ...SONG_REQUIRED]))).toBe(true);

    const trendingArtists = await body<TrendingArtist[]>(
      rough,
      '/api/v1/trending/artists?limit=100',
    );
    const trendingSongs = await body<TrendingSong[]>(rough, '/api/v1/trending/songs?limit=100');
    expect(lacking(trendingArtists, 'momentumScore')).toBeGreaterThan(0);
    expect(lacking(trendingSongs, 'momentumScore')).toBeGreaterThan(0);
    expect([...trendingArtists, ...trendingSongs].every((t) => typeof t.rank === 'number')).toBe(
      true,
    );

    const albums = (await body<Page<AlbumSummary>>(rough, '/api/v1/albums?limit=100')).data;
    expect(lacking(albums, 'trackCount')).toBeGreaterThan(0);
    expect(lacking(albums, 'imageUrl')).toBeGreaterThan(0);
    expect(
      albums.every((a) =>
        hasAll(a, ['id', 'slug', 'title', 'artistSlug', 'artistName', 'albumType', 'releaseDate']),
      ),
    ).toBe(true);
  });

  it('a record looks the same from every endpoint that serves it', async () => {
    const artists = await allArtists(rough);
    const gappy = artists.filter((a) => !hasAll(a, ARTIST_OPTIONAL));
    expect(gappy.length).toBeGreaterThan(0);
    const leaderboard = await body<RankedArtist[]>(rough, '/api/v1/leaderboard/streams?limit=100');
    for (const artist of gappy) {
      const profile = await body<ArtistProfile>(rough, `/api/v1/artists/${artist.slug}`);
      expect(artistPart(profile)).toEqual(artist);
      const ranked = leaderboard.find((a) => a.slug === artist.slug);
      if (ranked !== undefined) expect(artistPart(ranked)).toEqual(artist);
    }

    const top = leaderboard.slice(0, 10);
    for (const artist of top) {
      const songs = await body<SongSummary[]>(rough, `/api/v1/songs/${artist.slug}/songs`);
      const bySlug = new Map(songs.map((s) => [s.slug, s]));
      for (const song of songs.filter((s) => !hasAll(s, SONG_OPTIONAL)).slice(0, 3)) {
        const record = await body<SongRecord>(rough, `/api/v1/songs/${song.slug}`);
        const { durationMs: _duration, featuredArtists: _featured, ...summary } = record;
        expect(summary).toEqual(song);
      }
      for (const albumSlug of new Set(
        songs.flatMap((s) => (typeof s.albumSlug === 'string' ? [s.albumSlug] : [])),
      )) {
        const album = await body<AlbumRecord>(rough, `/api/v1/albums/${albumSlug}`);
        for (const { trackNumber: _n, ...track } of album.tracks)
          expect(track).toEqual(bySlug.get(track.slug));
      }
    }
  });

  it('some chart entries name songs outside the catalogue: search finds nothing for them; the others are found', async () => {
    let unlisted = 0;
    for (const { chartName, chartTerritory } of await body<ChartListItem[]>(
      rough,
      '/api/v1/charts',
    )) {
      const chart = await body<ChartResponse>(
        rough,
        `/api/v1/charts/${chartName}/${chartTerritory}`,
      );
      expect(chart.data.every((e) => hasAll(e, CHART_ENTRY_FIELDS))).toBe(true);
      expect(chart.data.map((e) => e.position)).toEqual(chart.data.map((_, i) => i + 1));
      const found = await Promise.all(
        chart.data.map((e) => body<SongSummary[]>(rough, search(e.songTitle, e.artistName))),
      );
      const missing = found.filter((songs) => songs.length === 0).length;
      expect(missing).toBeLessThan(chart.data.length / 4);
      unlisted += missing;
    }
    expect(unlisted).toBeGreaterThan(0);
  });

  it('some artists have two songs of one title with distinct slugs, and search by title and artist returns both', async () => {
    const top = await body<RankedArtist[]>(rough, '/api/v1/leaderboard/streams?limit=100');
    let repeated = 0;
    for (const artist of top) {
      const songs = await body<SongSummary[]>(rough, `/api/v1/songs/${artist.slug}/songs`);
      const byTitle = new Map<string, SongSummary[]>();
      for (const song of songs) byTitle.set(song.title, [...(byTitle.get(song.title) ?? []), song]);
      const twins = [...byTitle.values()].find((group) => group.length > 1);
      if (twins === undefined) continue;
      repeated += 1;
      const slugs = twins.map((s) => s.slug);
      expect(new Set(slugs).size).toBe(slugs.length);
      const title = twins[0]?.title ?? '';
      const found = await body<SongSummary[]>(rough, search(title, artist.name));
      expect(found.map((s) => s.slug)).toEqual(expect.arrayContaining(slugs));
      for (const slug of slugs)
        expect((await body<SongRecord>(rough, `/api/v1/songs/${slug}`)).title).toBe(title);
    }
    expect(repeated).toBeGreaterThan(3);
    expect(repeated).toBeLessThan(40);
  });

  it('milestone ids are unique, stable and opaque: their order says nothing of time', async () => {
    const first = await body<Page<MilestoneRecord>>(rough, '/api/v1/milestones/recent?limit=100');
    const pages = await Promise.all(
      Array.from({ length: first.meta.totalPages - 1 }, (_, i) =>
        body<Page<MilestoneRecord>>(rough, `/api/v1/milestones/recent?limit=100&page=${i + 2}`),
      ),
    );
    const all = [first, ...pages].flatMap((p) => p.data);
    expect(all).toHaveLength(first.meta.total);
    expect(all.every((m) => hasAll(m, MILESTONE_FIELDS))).toBe(true);
    const ids = all.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^ms_[0-9a-f]{16}$/);
    // Newest first by crossedAt, yet the ids are sorted neither way.
    const newest = ids.slice(0, 50);
    expect(newest).not.toEqual([...newest].sort());
    expect(newest).not.toEqual([...newest].sort().reverse());

    const subject = all[0] as MilestoneRecord;
    const timeline = await body<MilestoneRecord[]>(
      rough,
      `/api/v1/milestones/timeline/${subject.artistSlug}`,
    );
    expect(timeline).toContainEqual(subject);

    const twin = await start({ roughness: true });
    try {
      expect(
        (await get<Page<MilestoneRecord>>(twin, '/api/v1/milestones/recent?limit=100')).body,
      ).toEqual(first);
    } finally {
      await twin.close();
    }
  });

  it('is deterministic from the seed, and differs from the smooth data', async () => {
    const twin = await start({ roughness: true });
    try {
      expect(await body(rough, '/api/v1/artists?limit=100')).not.toEqual(
        await body(smooth, '/api/v1/artists?limit=100'),
      );
      for (const path of [
        '/api/v1/artists?limit=100',
        '/api/v1/charts/itunes_daily_ng/NG',
        '/api/v1/trending/songs?limit=100',
        '/api/v1/albums?limit=100',
      ]) {
        expect((await get(twin, path)).body).toEqual(await body(rough, path));
      }
    } finally {
      await twin.close();
    }
  });

  it('an artist lacking its country is left out of the country filter', async () => {
    const artists = await allArtists(rough);
    const countries = new Set(artists.flatMap((a) => (a.country === undefined ? [] : [a.country])));
    for (const country of countries) {
      const filtered = (
        await body<Page<ArtistSummary>>(rough, `/api/v1/artists?country=${country}&limit=100`)
      ).data;
      expect(filtered.every((a) => a.country === country)).toBe(true);
      expect(filtered.length).toBe(artists.filter((a) => a.country === country).length);
    }
  });
});

describe('roughness option validation', () => {
  it('rejects a non-boolean option with the value in the message', async () => {
    await expect(start({ roughness: 'yes' as unknown as boolean })).rejects.toThrow(
      'roughness must be true or false: "yes"',
    );
  });

  it('the standalone simulator refuses a bad SIMULATOR_ROUGHNESS with a clear message', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/main.ts'], {
      env: { ...process.env, SIMULATOR_ROUGHNESS: 'maybe', SIMULATOR_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr).toContain('SIMULATOR_ROUGHNESS must be true or false, got "maybe"');
  }, 30_000);
});
