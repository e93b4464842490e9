/**
 * JSON shaping: the one place that turns the internal dataset into the records
 * the API serves (upstream-api.md Part 2). Routes and the test data facade
 * both go through here, so tests see exactly what HTTP clients see.
 */
import type { SongRef } from './catalog.js';
import type { BuiltChart } from './charts.js';
import type { Dataset } from './dataset.js';
import { formatDay, yearOf } from './dates.js';
import { crossing } from './history.js';
import { albumId, type Milestone, songId } from './milestones.js';
import { ALBUM_TYPES, type ArtistCore, PLATFORMS } from './model.js';
import { AWARD_CATEGORIES, AWARD_NAMES } from './names.js';
import { intBetween, pick, rngFor, Salt } from './prng.js';
import { AlbumGap, ArtistGap, AwardGap, omitGaps, SongGap } from './roughness.js';
import type {
  AlbumRecord,
  AlbumSummary,
  ArtistProfile,
  ArtistSnapshot,
  ArtistSummary,
  Award,
  ChartListItem,
  ChartResponse,
  MilestoneFact,
  MilestoneRecord,
  SongRecord,
  SongSnapshot,
  SongSummary,
  TrendingArtist,
  TrendingSong,
} from './types.js';

const TOP_SONGS = 10;
const AWARD_WIN_CHANCE = 0.4;

export function artistSummary(artist: ArtistCore): ArtistSummary {
  return omitGaps(
    {
      id: artist.id,
      slug: artist.slug,
      name: artist.name,
      imageUrl: artist.imageUrl,
      country: artist.country,
      isAfrobeats: artist.isAfrobeats,
      totalStreams: artist.totalStreams,
      dailyStreams: artist.dailyStreams,
      monthlyListeners: artist.monthlyListeners,
    },
    artist.gaps,
    {
      imageUrl: ArtistGap.imageUrl,
      country: ArtistGap.country,
      dailyStreams: ArtistGap.dailyStreams,
    },
  );
}

export function artistProfile(ds: Dataset, artist: ArtistCore): ArtistProfile {
  return omitGaps(
    {
      ...artistSummary(artist),
      followers: artist.followers,
      charts: ds.chartPlacements(artist.index).map(({ chart, slot }) => ({
        chartName: chart.definition.name,
        chartTerritory: chart.definition.territory,
        chartWeek: formatDay(chart.week),
        position: slot.position,
        peakPosition: slot.peakPosition,
        weeksOnChart: slot.weeksOnChart,
      })),
      awards: awards(ds, artist),
      topSongs: songsByStreams(ds, artist.index).slice(0, TOP_SONGS),
    },
    artist.gaps,
    { followers: ArtistGap.followers },
  );
}

export function trendingArtist(artist: ArtistCore, rank: number): TrendingArtist {
  return omitGaps(
    { ...artistSummary(artist), rank, momentumScore: artist.momentumScore },
    artist.gaps,
    { momentumScore: ArtistGap.momentumScore },
  );
}

/** Awards go mostly to popular artists; their years fall within the career. */
function awards(ds: Dataset, artist: ArtistCore): Award[] {
  const rng = rngFor(ds.catalog.seed, Salt.awards, artist.index);
  const rank = artist.popularityRank;
  const count =
    rank < 50 ? intBetween(rng, 1, 6) : rank < 500 ? intBetween(rng, 0, 2) : rng() < 0.05 ? 1 : 0;
  const firstYear = yearOf(artist.debutDay);
  const lastYear = yearOf(ds.catalog.dataDay);
  const list: Award[] = [];
  for (let i = 0; i < count; i += 1) {
    list.push({
      name: pick(rng, AWARD_NAMES),
      category: pick(rng, AWARD_CATEGORIES),
      year: intBetween(rng, firstYear, lastYear),
      result: rng() < AWARD_WIN_CHANCE ? 'won' : 'nominated',
    });
  }
  list.sort((a, b) => b.year - a.year);
  return list.map((award, i) =>
    omitGaps(award, ds.catalog.rough.awardGaps(artist.index, i), {
      category: AwardGap.category,
      year: AwardGap.year,
    }),
  );
}

/** All songs of an artist, by total streams descending. */
export function songsByStreams(ds: Dataset, artistIndex: number): SongSummary[] {
  const c = ds.catalog;
  const start = c.songStart[artistIndex] ?? 0;
  const count = c.artist(artistIndex).songCount;
  const locals = Array.from({ length: count }, (_, i) => i);
  locals.sort((a, b) => (c.songTotal[start + b] ?? 0) - (c.songTotal[start + a] ?? 0) || a - b);
  return locals.map((local) => songSummary(ds, { artist: artistIndex, local }));
}

export function songSummary(ds: Dataset, ref: SongRef): SongSummary {
  const c = ds.catalog;
  const artist = c.artist(ref.artist);
  const numbers = c.numbers(ref.artist);
  const text = c.text(ref.artist);
  const album = numbers.album[ref.local] ?? -1;
  const slug = text.songSlugs[ref.local] ?? '';
  const global = c.songGlobal(ref);
  return omitGaps(
    {
      id: songId(global),
      slug,
      title: text.songTitles[ref.local] ?? '',
      artistSlug: artist.slug,
      artistName: artist.name,
      albumSlug: album < 0 ? null : (text.albumSlugs[album] ?? null),
      releaseDate: formatDay(numbers.releaseDay[ref.local] ?? c.dataDay),
      isAfrobeats: artist.isAfrobeats,
      imageUrl: `https://img.example/songs/${slug}.jpg`,
      totalStreams: c.songTotal[global] ?? 0,
      dailyStreams: c.songDaily[global] ?? 0,
    },
    c.rough.songGaps(global),
    { albumSlug: SongGap.albumSlug, releaseDate: SongGap.releaseDate, imageUrl: SongGap.imageUrl },
  );
}

export function trendingSong(ds: Dataset, global: number, rank: number): TrendingSong {
  const c = ds.catalog;
  return omitGaps(
    {
      ...songSummary(ds, c.songRefOf(global)),
      rank,
      momentumScore: roundScore(c.songScore[global] ?? 0),
    },
    c.rough.songGaps(global),
    { momentumScore: SongGap.momentumScore },
  );
}

/** Scores are stored as float32; serve them with one decimal as computed. */
function roundScore(score: number): number {
  return Math.round(score * 10) / 10;
}

export function songRecord(ds: Dataset, ref: SongRef): SongRecord {
  const c = ds.catalog;
  const text = c.text(ref.artist);
  return omitGaps(
    {
      ...songSummary(ds, ref),
      durationMs: text.durationMs[ref.local] ?? 0,
      featuredArtists: (text.featured[ref.local] ?? []).map((index) => {
        const guest = c.artist(index);
        return { slug: guest.slug, name: guest.name };
      }),
    },
    c.rough.songGaps(c.songGlobal(ref)),
    { durationMs: SongGap.durationMs },
  );
}

export function albumSummary(ds: Dataset, global: number): AlbumSummary {
  const c = ds.catalog;
  const artistIndex = c.albumArtist[global] ?? 0;
  const local = c.albumLocal[global] ?? 0;
  const artist = c.artist(artistIndex);
  const text = c.text(artistIndex);
  const slug = text.albumSlugs[local] ?? '';
  return omitGaps(
    {
      id: albumId(global),
      slug,
      title: text.albumTitles[local] ?? '',
      artistSlug: artist.slug,
      artistName: artist.name,
      albumType: ALBUM_TYPES[c.albumType[global] ?? 0] ?? 'album',
      releaseDate: formatDay(c.albumRelease[global] ?? c.dataDay),
      isAfrobeats: artist.isAfrobeats,
      imageUrl: `https://img.example/albums/${slug}.jpg`,
      trackCount: c.numbers(artistIndex).albums[local]?.tracks.length ?? 0,
      totalStreams: c.albumTotal[global] ?? 0,
      dailyStreams: c.albumDaily[global] ?? 0,
    },
    c.rough.albumGaps(global),
    { imageUrl: AlbumGap.imageUrl, trackCount: AlbumGap.trackCount },
  );
}

export function albumRecord(ds: Dataset, global: number): AlbumRecord {
  const c = ds.catalog;
  const artist = c.albumArtist[global] ?? 0;
  const album = c.numbers(artist).albums[c.albumLocal[global] ?? 0];
  return {
    ...albumSummary(ds, global),
    tracks: (album?.tracks ?? []).map((local, i) => ({
      ...songSummary(ds, { artist, local }),
      trackNumber: i + 1,
    })),
  };
}

export function artistHistory(ds: Dataset, artistIndex: number): ArtistSnapshot[] {
  const series = ds.catalog.artistSeries(artistIndex);
  const listeners = ds.catalog.artistListeners(artistIndex, series.total.length);
  return series.total.map((total, i) => ({
    date: formatDay(series.firstDay + i),
    totalStreams: total,
    dailyStreams: series.daily[i] ?? 0,
    monthlyListeners: listeners[i] ?? 0,
  }));
}

export function songHistory(ds: Dataset, ref: SongRef): SongSnapshot[] {
  const series = ds.catalog.songSeries(ref);
  return series.total.map((total, i) => ({
    date: formatDay(series.firstDay + i),
    totalStreams: total,
    dailyStreams: series.daily[i] ?? 0,
  }));
}

export function milestoneRecord(ds: Dataset, milestone: Milestone): MilestoneRecord {
  const c = ds.catalog;
  const artist = c.artist(milestone.artist);
  const isSong = milestone.song >= 0;
  const ref = isSong ? c.songRefOf(milestone.song) : null;
  return {
    id: milestone.id,
    metric: `${PLATFORMS[milestone.platform] ?? 'spotify'}_streams`,
    threshold: milestone.tier.value,
    crossedAt: formatDay(milestone.day),
    isAfrobeats: artist.isAfrobeats,
    streamValue: milestone.value,
    artistName: artist.name,
    artistSlug: artist.slug,
    artistImageUrl: artist.imageUrl,
    songId: isSong ? songId(milestone.song) : null,
    songTitle: ref === null ? null : (c.text(ref.artist).songTitles[ref.local] ?? null),
  };
}

export function artistStreamsFact(
  ds: Dataset,
  artist: ArtistCore,
  threshold: number,
): MilestoneFact {
  const series = ds.catalog.artistSeries(artist.index);
  const crossed = crossing(series.total, series.firstDay, threshold, artist.debutDay);
  return fact(
    artist,
    null,
    `${PLATFORMS[artist.platform] ?? 'spotify'}_streams`,
    threshold,
    crossed?.day ?? null,
    artist.totalStreams,
    'streams',
  );
}

export function artistListenersFact(
  ds: Dataset,
  artist: ArtistCore,
  threshold: number,
): MilestoneFact {
  const series = ds.catalog.artistSeries(artist.index);
  const listeners = ds.catalog.artistListeners(artist.index, series.total.length);
  const crossed = crossing(listeners, series.firstDay, threshold, artist.debutDay);
  return fact(
    artist,
    null,
    'monthly_listeners',
    threshold,
    crossed?.day ?? null,
    artist.monthlyListeners,
    'monthly listeners',
  );
}

export function songStreamsFact(ds: Dataset, ref: SongRef, threshold: number): MilestoneFact {
  const c = ds.catalog;
  const numbers = c.numbers(ref.artist);
  const series = c.songSeries(ref);
  const crossed = crossing(
    series.total,
    series.firstDay,
    threshold,
    numbers.releaseDay[ref.local] ?? series.firstDay,
  );
  const song = {
    slug: c.text(ref.artist).songSlugs[ref.local] ?? '',
    title: c.text(ref.artist).songTitles[ref.local] ?? '',
  };
  const metric = `${PLATFORMS[numbers.platform[ref.local] ?? 0] ?? 'spotify'}_streams`;
  return fact(
    c.artist(ref.artist),
    song,
    metric,
    threshold,
    crossed?.day ?? null,
    c.songTotal[c.songGlobal(ref)] ?? 0,
    'streams',
  );
}

function fact(
  artist: ArtistCore,
  song: { slug: string; title: string } | null,
  metric: string,
  threshold: number,
  crossedDay: number | null,
  currentValue: number,
  unit: string,
): MilestoneFact {
  const subject = song === null ? artist.name : `"${song.title}" by ${artist.name}`;
  const crossedAt = crossedDay === null ? null : formatDay(crossedDay);
  return {
    artistSlug: artist.slug,
    artistName: artist.name,
    songSlug: song?.slug ?? null,
    songTitle: song?.title ?? null,
    metric,
    threshold,
    reached: crossedAt !== null,
    crossedAt,
    currentValue,
    text:
      crossedAt === null
        ? `${subject} has not yet passed ${grouped(threshold)} ${unit} (currently ${grouped(currentValue)}).`
        : `${subject} passed ${grouped(threshold)} ${unit} on ${crossedAt}.`,
  };
}

export function chartListItem(chart: BuiltChart): ChartListItem {
  return {
    chartName: chart.definition.name,
    chartTerritory: chart.definition.territory,
    latestWeek: formatDay(chart.week),
    totalEntries: chart.slots.length,
  };
}

export function chartResponse(ds: Dataset, chart: BuiltChart, limit: number): ChartResponse {
  const c = ds.catalog;
  return {
    chartName: chart.definition.name,
    chartTerritory: chart.definition.territory,
    chartWeek: formatDay(chart.week),
    data: chart.slots.slice(0, limit).map((slot) => {
      const ref = c.songRefOf(slot.song);
      return {
        position: slot.position,
        songTitle: slot.unlisted?.songTitle ?? c.text(ref.artist).songTitles[ref.local] ?? '',
        artistName: slot.unlisted?.artistName ?? c.artist(ref.artist).name,
        peakPosition: slot.peakPosition,
        weeksOnChart: slot.weeksOnChart,
        trend: slot.trend,
        delta: slot.delta,
        prevRank: slot.prevRank,
      };
    }),
    meta: { total: chart.slots.length },
  };
}

function grouped(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
