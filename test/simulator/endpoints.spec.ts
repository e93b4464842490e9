import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type {
  AlbumRecord,
  AlbumSummary,
  ArtistProfile,
  ArtistSnapshot,
  ArtistSummary,
  ArtistTierItem,
  ChartListItem,
  ChartResponse,
  MilestoneFact,
  MilestoneRecord,
  Page,
  RankedArtist,
  RankedSong,
  SongRecord,
  SongSnapshot,
  SongSummary,
  SongTierItem,
  TrendingArtist,
  TrendingSong,
} from '../../src/simulator/types.js';
import { DATA_DATE, get, start } from '../support/simulator.js';

let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});

const artistSummaryShape = {
  id: expect.stringMatching(/^art_\d{5}$/),
  slug: expect.stringMatching(/^[a-z0-9-]+$/),
  name: expect.any(String),
  imageUrl: expect.stringMatching(/^https:\/\//),
  country: expect.stringMatching(/^[A-Z]{2}$/),
  isAfrobeats: expect.any(Boolean),
  totalStreams: expect.any(Number),
  dailyStreams: expect.any(Number),
  monthlyListeners: expect.any(Number),
};
const songSummaryShape = {
  id: expect.stringMatching(/^song_\d{7}$/),
  slug: expect.any(String),
  title: expect.any(String),
  artistSlug: expect.any(String),
  artistName: expect.any(String),
  releaseDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
  isAfrobeats: expect.any(Boolean),
  imageUrl: expect.any(String),
  totalStreams: expect.any(Number),
  dailyStreams: expect.any(Number),
};

describe('every endpoint answers 200 JSON in the Part 2 shape', () => {
  it('artists browse: envelope, default sort by streams, filters and sorts', async () => {
    const { status, contentType, body } = await get<Page<ArtistSummary>>(sim, '/api/v1/artists');
    expect(status).toBe(200);
    expect(contentType).toMatch(/^application\/json/);
    expect(body.meta).toEqual({ total: 300, page: 1, limit: 20, totalPages: 15 });
    expect(body.data).toHaveLength(20);
    expect(body.data[0]).toEqual(artistSummaryShape);
    const streams = body.data.map((a) => a.totalStreams);
    expect(streams).toEqual([...streams].sort((a, b) => b - a));

    const byName = await get<Page<ArtistSummary>>(
      sim,
      '/api/v1/artists?sortBy=name&limit=100&page=2',
    );
    const names = byName.body.data.map((a) => a.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(byName.body.meta).toMatchObject({ page: 2, limit: 100, totalPages: 3 });

    const ng = await get<Page<ArtistSummary>>(
      sim,
      '/api/v1/artists?country=NG&isAfrobeats=true&limit=100',
    );
    expect(ng.body.data.every((a) => a.country === 'NG' && a.isAfrobeats)).toBe(true);
    const letter = await get<Page<ArtistSummary>>(sim, '/api/v1/artists?letter=k&limit=100');
    expect(letter.body.meta.total).toBeGreaterThan(0);
    expect(letter.body.data.every((a) => a.name.startsWith('K'))).toBe(true);
    const first = body.data[0] as ArtistSummary;
    const q = await get<Page<ArtistSummary>>(
      sim,
      `/api/v1/artists?q=${encodeURIComponent(first.name.slice(1, 5).toUpperCase())}`,
    );
    expect(q.body.data.map((a) => a.slug)).toContain(first.slug);
    const unknownParam = await get<Page<ArtistSummary>>(sim, '/api/v1/artists?foo=bar');
    expect(unknownParam.status).toBe(200);
  });

  it('artist profile and history', async () => {
    const top = sim.data.allArtists()[0] as ArtistSummary;
    const { body } = await get<ArtistProfile>(sim, `/api/v1/artists/${top.slug}`);
    expect(body).toMatchObject({ ...artistSummaryShape, followers: expect.any(Number) });
    expect(body.topSongs.length).toBeLessThanOrEqual(10);
    expect(body.topSongs[0]).toMatchObject(songSummaryShape);
    expect(body).toEqual(sim.data.artistBySlug(top.slug));
    const history = await get<ArtistSnapshot[]>(sim, `/api/v1/artists/${top.slug}/history`);
    expect(history.body).toHaveLength(90);
    const last = history.body[89] as ArtistSnapshot;
    expect(last).toEqual({
      date: DATA_DATE,
      totalStreams: top.totalStreams,
      dailyStreams: top.dailyStreams,
      monthlyListeners: top.monthlyListeners,
    });
    for (let i = 1; i < 90; i += 1) {
      const [prev, cur] = [
        history.body[i - 1] as ArtistSnapshot,
        history.body[i] as ArtistSnapshot,
      ];
      expect(cur.totalStreams).toBe(prev.totalStreams + cur.dailyStreams);
    }
  });

  it('songs: search, song, history, songs of an artist', async () => {
    const artist = sim.data.allArtists()[3] as ArtistSummary;
    const songs = await get<SongSummary[]>(sim, `/api/v1/songs/${artist.slug}/songs`);
    expect(songs.status).toBe(200);
    expect(songs.body.length).toBeGreaterThan(0);
    expect(songs.body.every((s) => s.artistSlug === artist.slug)).toBe(true);
    const totals = songs.body.map((s) => s.totalStreams);
    expect(totals).toEqual([...totals].sort((a, b) => b - a));
    const limited = await get<SongSummary[]>(sim, `/api/v1/songs/${artist.slug}/songs?limit=3`);
    expect(limited.body).toEqual(songs.body.slice(0, 3));

    const song = songs.body[0] as SongSummary;
    const record = await get<SongRecord>(sim, `/api/v1/songs/${song.slug}`);
    expect(record.body).toEqual({
      ...song,
      durationMs: expect.any(Number),
      featuredArtists: expect.any(Array),
    });
    const history = await get<SongSnapshot[]>(sim, `/api/v1/songs/${song.slug}/history`);
    const last = history.body[history.body.length - 1] as SongSnapshot;
    expect(last).toEqual({
      date: DATA_DATE,
      totalStreams: song.totalStreams,
      dailyStreams: song.dailyStreams,
    });

    const search = await get<SongSummary[]>(
      sim,
      `/api/v1/songs/search?title=${encodeURIComponent(song.title.toUpperCase())}&artistName=${encodeURIComponent(artist.name.toLowerCase())}`,
    );
    expect(search.body[0]).toEqual(song);
    const none = await get<SongSummary[]>(
      sim,
      '/api/v1/songs/search?title=zzzz-nothing&artistName=nobody',
    );
    expect(none).toMatchObject({ status: 200, body: [] });
  });

  it('featured artists refer to generated artists', () => {
    const featured = sim.data
      .allArtists()
      .slice(0, 20)
      .flatMap((a) => sim.data.songsOfArtist(a.slug) ?? [])
      .map((s) => sim.data.songBySlug(s.slug) as SongRecord)
      .flatMap((s) => s.featuredArtists);
    expect(featured.length).toBeGreaterThan(0);
    for (const guest of featured) expect(sim.data.artistBySlug(guest.slug)?.name).toBe(guest.name);
  });

  it('milestones: recent, by tier, timeline, facts', async () => {
    const recent = await get<Page<MilestoneRecord>>(sim, '/api/v1/milestones/recent?limit=5');
    expect(recent.body.meta).toMatchObject({ page: 1, limit: 5 });
    const dates = recent.body.data.map((m) => m.crossedAt);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(recent.body.data[0]?.metric).toMatch(
      /^(spotify|apple_music|audiomack|youtube)_streams$/,
    );
    const afro = await get<Page<MilestoneRecord>>(
      sim,
      '/api/v1/milestones/recent?isAfrobeats=false&limit=100',
    );
    expect(afro.body.data.every((m) => !m.isAfrobeats)).toBe(true);

    for (const tier of ['100m', '500m', '1b', '2b', '5b', '10b', '15b', '20b']) {
      const page = await get<Page<ArtistTierItem>>(sim, `/api/v1/milestones/artists/${tier}`);
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBeGreaterThan(0);
      expect(page.body.data[0]).toEqual({
        ...artistSummaryShape,
        crossedAt: expect.any(String),
        threshold: expect.any(Number),
      });
    }
    for (const tier of ['50m', '100m', '500m', '1b', '2b']) {
      const page = await get<Page<SongTierItem>>(
        sim,
        `/api/v1/milestones/songs/${tier}?isAfrobeats=true`,
      );
      expect(page.status).toBe(200);
      expect(page.body.meta.total).toBeGreaterThan(0);
      expect(page.body.data[0]).toMatchObject({
        ...songSummaryShape,
        crossedAt: expect.any(String),
        threshold: expect.any(Number),
      });
    }

    const top = sim.data.allArtists()[0] as ArtistSummary;
    const timeline = await get<MilestoneRecord[]>(sim, `/api/v1/milestones/timeline/${top.slug}`);
    expect(timeline.body.length).toBeGreaterThan(0);
    const crossed = timeline.body.map((m) => m.crossedAt);
    expect(crossed).toEqual([...crossed].sort());
    const artist20b = timeline.body.find(
      (m) => m.songId === null && m.threshold === 20_000_000_000,
    ) as MilestoneRecord;
    expect(artist20b.songTitle).toBeNull();

    const fact = await get<MilestoneFact>(
      sim,
      `/api/v1/milestones/facts/${top.slug}/streams/20000000000`,
    );
    expect(fact.body).toMatchObject({
      artistSlug: top.slug,
      songSlug: null,
      reached: true,
      crossedAt: artist20b.crossedAt,
      currentValue: top.totalStreams,
      metric: artist20b.metric,
    });
    expect(fact.body.text).toBe(
      `${top.name} passed 20,000,000,000 streams on ${artist20b.crossedAt}.`,
    );
    const notYet = await get<MilestoneFact>(
      sim,
      `/api/v1/milestones/facts/${top.slug}/streams/900000000000`,
    );
    expect(notYet.body).toMatchObject({ reached: false, crossedAt: null });
    const listeners = await get<MilestoneFact>(
      sim,
      `/api/v1/milestones/facts/${top.slug}/listeners/1000000`,
    );
    expect(listeners.body).toMatchObject({
      metric: 'monthly_listeners',
      reached: true,
      currentValue: top.monthlyListeners,
    });
    const song = (sim.data.songsOfArtist(top.slug) as SongSummary[])[0] as SongSummary;
    const songFact = await get<MilestoneFact>(
      sim,
      `/api/v1/milestones/facts/${top.slug}/songs/${song.slug}/streams/1000`,
    );
    expect(songFact.body).toMatchObject({
      songSlug: song.slug,
      songTitle: song.title,
      reached: true,
      currentValue: song.totalStreams,
    });
  });

  it('leaderboards and trending: bare arrays with rank', async () => {
    const streams = await get<RankedArtist[]>(sim, '/api/v1/leaderboard/streams');
    expect(streams.body).toHaveLength(20);
    expect(streams.body.map((a) => a.rank)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(streams.body[0]).toEqual({ ...artistSummaryShape, rank: 1 });
    const listeners = await get<RankedArtist[]>(
      sim,
      '/api/v1/leaderboard/listeners?limit=100&country=GH',
    );
    expect(listeners.body.every((a) => a.country === 'GH')).toBe(true);
    const ml = listeners.body.map((a) => a.monthlyListeners);
    expect(ml).toEqual([...ml].sort((a, b) => b - a));
    const songs = await get<RankedSong[]>(
      sim,
      '/api/v1/leaderboard/songs?limit=100&isAfrobeats=true',
    );
    expect(songs.body).toHaveLength(100);
    expect(songs.body[0]).toEqual({
      ...songSummaryShape,
      albumSlug: songs.body[0]?.albumSlug,
      rank: 1,
    });
    const trendingArtists = await get<TrendingArtist[]>(
      sim,
      '/api/v1/trending/artists?limit=5&isAfrobeats=true',
    );
    expect(trendingArtists.body[0]).toEqual({
      ...artistSummaryShape,
      rank: 1,
      momentumScore: expect.any(Number),
    });
    const trendingSongs = await get<TrendingSong[]>(sim, '/api/v1/trending/songs');
    expect(trendingSongs.body).toHaveLength(20);
    const scores = trendingSongs.body.map((s) => s.momentumScore);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('albums browse and album', async () => {
    const list = await get<Page<AlbumSummary>>(
      sim,
      '/api/v1/albums?albumType=ep&sortBy=releaseDate',
    );
    expect(list.body.data.every((a) => a.albumType === 'ep')).toBe(true);
    const dates = list.body.data.map((a) => a.releaseDate);
    expect(dates).toEqual([...dates].sort().reverse());
    const first = list.body.data[0] as AlbumSummary;
    const album = await get<AlbumRecord>(sim, `/api/v1/albums/${first.slug}`);
    expect(album.body).toMatchObject(first);
    expect(album.body.tracks).toHaveLength(first.trackCount);
    expect(album.body.tracks.map((t) => t.trackNumber)).toEqual(
      album.body.tracks.map((_, i) => i + 1),
    );
    expect(album.body.tracks.every((t) => t.albumSlug === first.slug)).toBe(true);
    expect(album.body.tracks.reduce((sum, t) => sum + t.totalStreams, 0)).toBe(first.totalStreams);
    for (const type of ['album', 'single']) {
      const page = await get<Page<AlbumSummary>>(sim, `/api/v1/albums?albumType=${type}&limit=1`);
      expect(page.body.meta.total).toBeGreaterThan(0);
    }
  });

  it('charts list and chart entries', async () => {
    const list = await get<ChartListItem[]>(sim, '/api/v1/charts');
    expect(list.body).toEqual([
      {
        chartName: 'official_afrobeats_chart',
        chartTerritory: 'UK',
        latestWeek: '2026-11-20',
        totalEntries: 20,
      },
      {
        chartName: 'spotify_daily_ng',
        chartTerritory: 'NG',
        latestWeek: DATA_DATE,
        totalEntries: 50,
      },
      {
        chartName: 'itunes_daily_ng',
        chartTerritory: 'NG',
        latestWeek: DATA_DATE,
        totalEntries: 100,
      },
    ]);
    for (const item of list.body) {
      const chart = await get<ChartResponse>(
        sim,
        `/api/v1/charts/${item.chartName}/${item.chartTerritory}`,
      );
      expect(chart.body).toMatchObject({
        chartName: item.chartName,
        chartTerritory: item.chartTerritory,
        chartWeek: item.latestWeek,
        meta: { total: item.totalEntries },
      });
      expect(chart.body.data).toHaveLength(item.totalEntries);
      expect(new Set(chart.body.data.map((e) => e.trend))).toEqual(
        new Set(['NEW', 'UP', 'DOWN', 'SAME', 'RE']),
      );
      for (const entry of chart.body.data) {
        expect(entry.peakPosition).toBeLessThanOrEqual(entry.position);
        if (entry.prevRank === null) expect(['NEW', 'RE']).toContain(entry.trend);
        else expect(entry.delta).toBe(entry.prevRank - entry.position);
        if (entry.trend === 'NEW')
          expect(entry).toMatchObject({ prevRank: null, delta: 0, weeksOnChart: 1 });
      }
    }
    const limited = await get<ChartResponse>(sim, '/api/v1/charts/itunes_daily_ng/NG?limit=200');
    expect(limited.body.data).toHaveLength(100);
    const three = await get<ChartResponse>(sim, '/api/v1/charts/itunes_daily_ng/NG?limit=3');
    expect(three.body.data.map((e) => e.position)).toEqual([1, 2, 3]);
    expect(three.body.meta.total).toBe(100);
  });

  it('chart entries are real songs that search finds, and artist profiles list them', async () => {
    const chart = sim.data.chart('spotify_daily_ng', 'NG') as ChartResponse;
    for (const entry of chart.data.slice(0, 10)) {
      const found = await get<SongSummary[]>(
        sim,
        `/api/v1/songs/search?title=${encodeURIComponent(entry.songTitle)}&artistName=${encodeURIComponent(entry.artistName)}`,
      );
      expect(found.body[0]).toMatchObject({ title: entry.songTitle, artistName: entry.artistName });
      const profile = sim.data.artistBySlug(found.body[0]?.artistSlug ?? '') as ArtistProfile;
      expect(profile.charts).toContainEqual(
        expect.objectContaining({
          chartName: 'spotify_daily_ng',
          position: entry.position,
          peakPosition: entry.peakPosition,
        }),
      );
    }
  });
});
