/**
 * Tolerant readers: the only code that looks inside upstream JSON.
 *
 * The upstream documents few of its bodies (upstream-api.md, Part 2), so every
 * reader follows one policy: unknown fields are ignored, a missing or
 * mistyped optional field becomes `null`, a list may come bare or as
 * `{ data: [...] }`, and a body without the fields that identify a record
 * throws `ShapeError`, which the upstream layer turns into
 * UPSTREAM_INVALID_RESPONSE for the fields that needed it. Nothing is invented.
 */
import type {
  AlbumRecord,
  AlbumSummary,
  AlbumType,
  ArtistChartRecord,
  ArtistLink,
  ArtistProfile,
  ArtistSummary,
  AwardRecord,
  ChartEntryRecord,
  ChartRecord,
  ChartSummaryRecord,
  ChartTrend,
  MilestoneFactRecord,
  MilestoneRecord,
  Page,
  RankedRecord,
  SongRecord,
  SongSummary,
  StreamSnapshotRecord,
  TierArtistRecord,
  TierSongRecord,
  TrackRecord,
} from './records.js';

export class ShapeError extends Error {
  override readonly name = 'ShapeError';
}

type Json = Record<string, unknown>;
export type Reader<T> = (value: unknown) => T;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CHART_TRENDS: readonly ChartTrend[] = ['NEW', 'UP', 'DOWN', 'SAME', 'RE'];
const ALBUM_TYPES: readonly AlbumType[] = ['album', 'single', 'ep'];

function object(value: unknown, what: string): Json {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ShapeError(`expected ${what} to be an object`);
  }
  return value as Json;
}

function requiredString(o: Json, key: string): string {
  const value = o[key];
  if (typeof value === 'string' && value.length > 0) return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  throw new ShapeError(`expected "${key}" to be a non-empty string`);
}

function optionalString(o: Json, key: string): string | null {
  const value = o[key];
  return typeof value === 'string' && value.length > 0 ? value : null;
}

/** Counts are integers below 2^53; some APIs send them as numeric strings. */
function optionalInteger(o: Json, key: string): number | null {
  const value = o[key];
  const number = typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isSafeInteger(number) ? number : null;
}

function requiredInteger(o: Json, key: string): number {
  const value = optionalInteger(o, key);
  if (value === null) throw new ShapeError(`expected "${key}" to be an integer`);
  return value;
}

function optionalFloat(o: Json, key: string): number | null {
  const value = o[key];
  const number = typeof value === 'string' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function optionalBoolean(o: Json, key: string): boolean | null {
  const value = o[key];
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return null;
}

function optionalDate(o: Json, key: string): string | null {
  const value = o[key];
  return typeof value === 'string' && DATE.test(value) ? value : null;
}

function requiredDate(o: Json, key: string): string {
  const value = optionalDate(o, key);
  if (value === null) throw new ShapeError(`expected "${key}" to be a YYYY-MM-DD date`);
  return value;
}

/** Only absolute http(s) URLs are passed on; anything else would fail the URL scalar later. */
function optionalUrl(o: Json, key: string): string | null {
  const value = optionalString(o, key);
  if (value === null || !URL.canParse(value)) return null;
  const protocol = new URL(value).protocol;
  return protocol === 'https:' || protocol === 'http:' ? value : null;
}

function optionalList<T>(o: Json, key: string, read: Reader<T>): T[] {
  const value = o[key];
  return Array.isArray(value) ? value.map(read) : [];
}

/** A list body: a bare array, or the same array under `data`. */
export function listOf<T>(read: Reader<T>): Reader<T[]> {
  return (body) => {
    const items = Array.isArray(body) ? body : object(body, 'the body').data;
    if (!Array.isArray(items)) throw new ShapeError('expected a list body');
    return items.map(read);
  };
}

/** A paginated body: `{ data, meta: { total } }`. */
export function pageOf<T>(read: Reader<T>): Reader<Page<T>> {
  return (body) => {
    const envelope = object(body, 'the body');
    if (!Array.isArray(envelope.data)) throw new ShapeError('expected "data" to be a list');
    const meta = object(envelope.meta, '"meta"');
    const total = requiredInteger(meta, 'total');
    return { items: envelope.data.map(read), total: Math.max(total, 0) };
  };
}

export const readArtistSummary: Reader<ArtistSummary> = (value) => {
  const o = object(value, 'an artist');
  return {
    id: optionalString(o, 'id'),
    slug: requiredString(o, 'slug'),
    name: requiredString(o, 'name'),
    imageUrl: optionalUrl(o, 'imageUrl'),
    country: optionalString(o, 'country'),
    isAfrobeats: optionalBoolean(o, 'isAfrobeats'),
    totalStreams: optionalInteger(o, 'totalStreams'),
    dailyStreams: optionalInteger(o, 'dailyStreams'),
    monthlyListeners: optionalInteger(o, 'monthlyListeners'),
  };
};

const readArtistChart: Reader<ArtistChartRecord> = (value) => {
  const o = object(value, 'a chart position');
  return {
    chartName: requiredString(o, 'chartName'),
    chartTerritory: requiredString(o, 'chartTerritory'),
    chartWeek: optionalDate(o, 'chartWeek'),
    position: requiredInteger(o, 'position'),
    peakPosition: optionalInteger(o, 'peakPosition'),
    weeksOnChart: optionalInteger(o, 'weeksOnChart'),
  };
};

const readAward: Reader<AwardRecord> = (value) => {
  const o = object(value, 'an award');
  return {
    name: requiredString(o, 'name'),
    category: optionalString(o, 'category'),
    year: optionalInteger(o, 'year'),
    won: optionalString(o, 'result')?.toLowerCase() === 'won',
  };
};

export const readSongSummary: Reader<SongSummary> = (value) => {
  const o = object(value, 'a song');
  return {
    id: optionalString(o, 'id'),
    slug: requiredString(o, 'slug'),
    title: requiredString(o, 'title'),
    artistSlug: requiredString(o, 'artistSlug'),
    artistName: optionalString(o, 'artistName'),
    albumSlug: optionalString(o, 'albumSlug'),
    releaseDate: optionalDate(o, 'releaseDate'),
    isAfrobeats: optionalBoolean(o, 'isAfrobeats'),
    imageUrl: optionalUrl(o, 'imageUrl'),
    totalStreams: optionalInteger(o, 'totalStreams'),
    dailyStreams: optionalInteger(o, 'dailyStreams'),
  };
};

export const readArtistProfile: Reader<ArtistProfile> = (value) => {
  const o = object(value, 'an artist');
  return {
    ...readArtistSummary(o),
    followers: optionalInteger(o, 'followers'),
    charts: optionalList(o, 'charts', readArtistChart),
    awards: optionalList(o, 'awards', readAward),
    topSongs: optionalList(o, 'topSongs', readSongSummary),
  };
};

/** A leaderboard or trending list: each item is a summary plus `rank` (its position when absent) and maybe `momentumScore`. */
function rankedListOf<T>(read: Reader<T>): Reader<RankedRecord<T>[]> {
  return (body) =>
    listOf((value) => object(value, 'a ranked item'))(body).map((o, index) => ({
      rank: optionalInteger(o, 'rank') ?? index + 1,
      momentumScore: optionalFloat(o, 'momentumScore'),
      item: read(o),
    }));
}

export const readRankedArtists = rankedListOf(readArtistSummary);
export const readRankedSongs = rankedListOf(readSongSummary);

export const readTierArtist: Reader<TierArtistRecord> = (value) => {
  const o = object(value, 'a tier artist');
  return { crossedAt: optionalDate(o, 'crossedAt'), artist: readArtistSummary(o) };
};

export const readTierSong: Reader<TierSongRecord> = (value) => {
  const o = object(value, 'a tier song');
  return { crossedAt: optionalDate(o, 'crossedAt'), song: readSongSummary(o) };
};

const readArtistLink: Reader<ArtistLink> = (value) => {
  const o = object(value, 'a featured artist');
  return { slug: requiredString(o, 'slug'), name: optionalString(o, 'name') };
};

export const readSong: Reader<SongRecord> = (value) => {
  const o = object(value, 'a song');
  return {
    ...readSongSummary(o),
    durationMs: optionalInteger(o, 'durationMs'),
    featuredArtists: optionalList(o, 'featuredArtists', readArtistLink),
  };
};

export const readAlbumSummary: Reader<AlbumSummary> = (value) => {
  const o = object(value, 'an album');
  const albumType = optionalString(o, 'albumType')?.toLowerCase() as AlbumType | undefined;
  if (albumType === undefined || !ALBUM_TYPES.includes(albumType)) {
    throw new ShapeError('expected "albumType" to be album, single or ep');
  }
  return {
    id: optionalString(o, 'id'),
    slug: requiredString(o, 'slug'),
    title: requiredString(o, 'title'),
    artistSlug: requiredString(o, 'artistSlug'),
    artistName: optionalString(o, 'artistName'),
    albumType,
    releaseDate: optionalDate(o, 'releaseDate'),
    isAfrobeats: optionalBoolean(o, 'isAfrobeats'),
    imageUrl: optionalUrl(o, 'imageUrl'),
    trackCount: optionalInteger(o, 'trackCount'),
    totalStreams: optionalInteger(o, 'totalStreams'),
    dailyStreams: optionalInteger(o, 'dailyStreams'),
  };
};

const readTrack: Reader<TrackRecord> = (value) => {
  const o = object(value, 'a track');
  return { trackNumber: requiredInteger(o, 'trackNumber'), song: readSongSummary(o) };
};

export const readAlbum: Reader<AlbumRecord> = (value) => {
  const o = object(value, 'an album');
  const tracks = optionalList(o, 'tracks', readTrack);
  return {
    ...readAlbumSummary(o),
    tracks: [...tracks].sort((a, b) => a.trackNumber - b.trackNumber),
  };
};

export const readStreamSnapshot: Reader<StreamSnapshotRecord> = (value) => {
  const o = object(value, 'a stream snapshot');
  return {
    date: requiredDate(o, 'date'),
    totalStreams: optionalInteger(o, 'totalStreams'),
    dailyStreams: optionalInteger(o, 'dailyStreams'),
    monthlyListeners: optionalInteger(o, 'monthlyListeners'),
  };
};

/** Histories are served oldest first whatever order the upstream used. */
export const readHistory: Reader<StreamSnapshotRecord[]> = (body) =>
  listOf(readStreamSnapshot)(body).sort((a, b) => a.date.localeCompare(b.date));

export const readMilestone: Reader<MilestoneRecord> = (value) => {
  const o = object(value, 'a milestone');
  const artistSlug = requiredString(o, 'artistSlug');
  const threshold = requiredInteger(o, 'threshold');
  const crossedAt = requiredDate(o, 'crossedAt');
  return {
    // The timeline endpoint promises only threshold and crossedAt, so an id is derived when absent.
    id: optionalString(o, 'id') ?? `${artistSlug}:${optionalString(o, 'songId') ?? ''}:${threshold}`,
    metric: optionalString(o, 'metric') ?? 'streams',
    threshold,
    crossedAt,
    isAfrobeats: optionalBoolean(o, 'isAfrobeats') ?? false,
    streamValue: optionalInteger(o, 'streamValue'),
    artistName: optionalString(o, 'artistName'),
    artistSlug,
    artistImageUrl: optionalUrl(o, 'artistImageUrl'),
    songId: optionalString(o, 'songId'),
    songTitle: optionalString(o, 'songTitle'),
  };
};

/** The timeline may omit the artist fields; the slug we asked for fills them. */
export function readTimeline(artistSlug: string): Reader<MilestoneRecord[]> {
  return (body) =>
    listOf((value) => readMilestone({ artistSlug, ...object(value, 'a milestone') }))(body).sort(
      (a, b) => a.crossedAt.localeCompare(b.crossedAt) || a.threshold - b.threshold,
    );
}

export const readMilestoneFact: Reader<MilestoneFactRecord> = (value) => {
  const o = object(value, 'a milestone fact');
  const reached = optionalBoolean(o, 'reached');
  if (reached === null) throw new ShapeError('expected "reached" to be a boolean');
  return {
    metric: requiredString(o, 'metric'),
    threshold: requiredInteger(o, 'threshold'),
    reached,
    crossedAt: optionalDate(o, 'crossedAt'),
    currentValue: optionalInteger(o, 'currentValue'),
    text: optionalString(o, 'text'),
  };
};

const readChartEntry: Reader<ChartEntryRecord> = (value) => {
  const o = object(value, 'a chart entry');
  const trend = optionalString(o, 'trend')?.toUpperCase() as ChartTrend | undefined;
  if (trend === undefined || !CHART_TRENDS.includes(trend)) {
    throw new ShapeError('expected "trend" to be NEW, UP, DOWN, SAME or RE');
  }
  const position = requiredInteger(o, 'position');
  return {
    position,
    songTitle: requiredString(o, 'songTitle'),
    artistName: requiredString(o, 'artistName'),
    peakPosition: optionalInteger(o, 'peakPosition') ?? position,
    weeksOnChart: optionalInteger(o, 'weeksOnChart') ?? 1,
    trend,
    delta: optionalInteger(o, 'delta') ?? 0,
    prevRank: trend === 'NEW' ? null : optionalInteger(o, 'prevRank'),
  };
};

export const readChart: Reader<ChartRecord> = (value) => {
  const o = object(value, 'a chart');
  if (!Array.isArray(o.data)) throw new ShapeError('expected "data" to be a list');
  const entries = o.data.map(readChartEntry).sort((a, b) => a.position - b.position);
  const meta = typeof o.meta === 'object' && o.meta !== null ? (o.meta as Json) : {};
  return {
    chartName: requiredString(o, 'chartName'),
    chartTerritory: requiredString(o, 'chartTerritory'),
    chartWeek: requiredDate(o, 'chartWeek'),
    total: optionalInteger(meta, 'total') ?? entries.length,
    entries,
  };
};

export const readChartSummary: Reader<ChartSummaryRecord> = (value) => {
  const o = object(value, 'a chart summary');
  return {
    chartName: requiredString(o, 'chartName'),
    chartTerritory: requiredString(o, 'chartTerritory'),
    latestWeek: optionalDate(o, 'latestWeek'),
    totalEntries: optionalInteger(o, 'totalEntries'),
  };
};
