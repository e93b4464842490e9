import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import type { ArtistSummary, MilestoneRecord, SongSummary } from '../../src/simulator/types.js';
import { get, start } from '../support/simulator.js';

const TWO_POW_31 = 2 ** 31;
let sim: Simulator;
beforeAll(async () => {
  sim = await start();
});
afterAll(async () => {
  await sim.close();
});

describe('generated dataset', () => {
  it('is deterministic: the same seed and date serve identical bodies; another seed differs', async () => {
    const twin = await start();
    const other = await start({ seed: 7 });
    const paths = [
      '/api/v1/artists?limit=100',
      '/api/v1/charts/spotify_daily_ng/NG',
      '/api/v1/milestones/recent?limit=50',
      '/api/v1/trending/songs?limit=100',
      '/api/v1/albums?limit=50',
    ];
    const top = sim.data.allArtists()[0]?.slug;
    paths.push(
      `/api/v1/artists/${top}`,
      `/api/v1/artists/${top}/history`,
      `/api/v1/songs/${top}/songs`,
    );
    for (const path of paths) {
      expect((await get(twin, path)).body).toEqual((await get(sim, path)).body);
    }
    expect((await get(other, paths[0] ?? '')).body).not.toEqual(
      (await get(sim, paths[0] ?? '')).body,
    );
    await Promise.all([twin.close(), other.close()]);
  });

  it('has realistic scale: totals above 2^31, top artist between 15 and 25 billion, about 60% Afrobeats', () => {
    const artists = sim.data.allArtists();
    expect(artists).toHaveLength(300);
    const top = artists[0] as ArtistSummary;
    expect(top.totalStreams).toBeGreaterThan(20_000_000_000);
    expect(top.totalStreams).toBeLessThan(25_000_000_000);
    expect(artists.filter((a) => a.totalStreams > TWO_POW_31).length).toBeGreaterThan(10);
    expect(artists.every((a) => Number.isSafeInteger(a.totalStreams))).toBe(true);
    const afro = artists.filter((a) => a.isAfrobeats).length / artists.length;
    expect(afro).toBeGreaterThan(0.5);
    expect(afro).toBeLessThan(0.7);
    expect(new Set(artists.map((a) => a.country)).size).toBeGreaterThanOrEqual(8);
    expect(new Set(artists.map((a) => a.slug)).size).toBe(artists.length);
    expect(sim.data.songCount).toBeGreaterThan(artists.length * 10);
  });

  it('song and album slugs are <artistSlug>-<title> and resolve back to themselves', () => {
    for (const artist of sim.data.allArtists().slice(0, 40)) {
      for (const song of sim.data.songsOfArtist(artist.slug) ?? []) {
        expect(song.slug.startsWith(`${artist.slug}-`)).toBe(true);
        expect(sim.data.songBySlug(song.slug)?.id).toBe(song.id);
      }
      for (const album of sim.data.albumsOfArtist(artist.slug) ?? []) {
        expect(sim.data.albumBySlug(album.slug)?.id).toBe(album.id);
      }
    }
  });

  it('some songs have an album and some do not', () => {
    const songs = sim.data
      .allArtists()
      .slice(0, 10)
      .flatMap((a) => sim.data.songsOfArtist(a.slug) ?? []);
    expect(songs.some((s) => s.albumSlug === null)).toBe(true);
    expect(songs.some((s) => s.albumSlug !== null)).toBe(true);
  });

  it('milestones match the histories: a crossing inside the window is the first snapshot at or above the threshold', () => {
    const recent = sim.data.recentMilestones({ limit: 100 }).data;
    const inWindow = recent.filter((m) => m.crossedAt > '2026-08-24');
    expect(inWindow.length).toBeGreaterThan(0);
    expect(
      new Set(sim.data.recentMilestones({ limit: 100, page: 1 }).data.map((m) => m.id)).size,
    ).toBe(recent.length);
    for (const m of inWindow.slice(0, 20) as MilestoneRecord[]) {
      const history =
        m.songId === null
          ? (sim.data.artistHistory(m.artistSlug) ?? [])
          : (sim.data.songHistory(songSlugOf(m)) ?? []);
      const day = history.find((h) => h.date === m.crossedAt);
      expect(day?.totalStreams).toBe(m.streamValue);
      expect(m.streamValue).toBeGreaterThanOrEqual(m.threshold);
      const before = history[history.findIndex((h) => h.date === m.crossedAt) - 1];
      if (before !== undefined) expect(before.totalStreams).toBeLessThan(m.threshold);
    }
  });

  it('song histories start at the release date for recent songs', () => {
    const recent = sim.data
      .allArtists()
      .slice(0, 30)
      .flatMap((a) => sim.data.songsOfArtist(a.slug) ?? [])
      .find((s) => s.releaseDate > '2026-09-01') as SongSummary;
    const history = sim.data.songHistory(recent.slug) ?? [];
    expect(history[0]?.date).toBe(recent.releaseDate);
    expect(history[0]?.totalStreams).toBe(history[0]?.dailyStreams);
  });

  it('size option: a tiny dataset still serves every chart', async () => {
    const tiny = await start({ artists: 3 });
    expect(tiny.data.allArtists()).toHaveLength(3);
    expect(tiny.data.charts().map((c) => c.totalEntries)).toEqual([20, 50, 100]);
    await tiny.close();
  });

  it('rejects bad options with the value in the message', async () => {
    await expect(start({ artists: 20_001 })).rejects.toThrow(
      'artists must be an integer between 1 and 20000: 20001',
    );
    await expect(start({ dataDate: '2026-13-01' })).rejects.toThrow(
      'dataDate must be a valid date in the form YYYY-MM-DD: 2026-13-01',
    );
  });

  function songSlugOf(m: MilestoneRecord): string {
    const songs = sim.data.songsOfArtist(m.artistSlug) ?? [];
    return songs.find((s) => s.id === m.songId)?.slug ?? '';
  }
});
