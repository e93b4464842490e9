/**
 * Every upstream endpoint the gateway uses, as typed request descriptors.
 *
 * This module and `readers.ts` are the only places that know the upstream's
 * URLs and shapes. A descriptor names the path segments (encoded later, one
 * by one, by `buildPath`), the query, and the reader for the body; its `key`
 * is the canonical URL, which doubles as the cache and de-duplication key.
 *
 * Lists are always requested at the endpoint's maximum size and sliced by the
 * gateway, so that different `first`/`limit` values share one cached answer.
 */
import {
  listOf,
  pageOf,
  readAlbum,
  readAlbumSummary,
  readArtistProfile,
  readArtistSummary,
  readChart,
  readChartSummary,
  readHistory,
  readMilestone,
  readMilestoneFact,
  readRankedArtists,
  readRankedSongs,
  readSong,
  readSongSummary,
  readTierArtist,
  readTierSong,
  readTimeline,
  type Reader,
} from './readers.js';
import type { AlbumType } from './records.js';
import { requirePathValues } from './path-values.js';

export const API_PREFIX = ['api', 'v1'] as const;
/** Largest `limit` the paginated endpoints, leaderboards and trending lists accept. */
export const MAX_PAGE_SIZE = 100;
/** Largest `limit` the chart entries endpoint accepts. */
export const MAX_CHART_SIZE = 200;

export type QueryValue = string | number | boolean | null | undefined;

export interface UpstreamRequest<T> {
  /** Canonical relative URL: the cache and de-duplication key. */
  readonly key: string;
  /** What kind of resource this is, for logs and cost reports. */
  readonly resource: string;
  readonly read: Reader<T>;
}

/** Percent-encodes each segment on its own, so no value can add or climb a path level. */
export function buildPath(segments: readonly string[], query: Record<string, QueryValue> = {}): string {
  const path = `/${[...API_PREFIX, ...segments].map(encodeSegment).join('/')}`;
  const search = new URLSearchParams();
  for (const name of Object.keys(query).sort()) {
    const value = query[name];
    if (value !== undefined && value !== null) search.set(name, String(value));
  }
  const queryString = search.toString();
  return queryString ? `${path}?${queryString}` : path;
}

/** encodeURIComponent leaves `.` alone, and a segment of `.` or `..` would still climb a level. */
function encodeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/\./g, '%2E');
}

function request<T>(
  resource: string,
  segments: readonly string[],
  query: Record<string, QueryValue>,
  read: Reader<T>,
): UpstreamRequest<T> {
  requirePathValues(segments);
  return { key: buildPath(segments, query), resource, read };
}

export type ArtistSortValue = 'name' | 'totalStreams' | 'monthlyListeners';
export type AlbumSortValue = 'totalStreams' | 'releaseDate' | 'dailyStreams';

export interface ArtistFilter {
  readonly letter?: string | null;
  readonly country?: string | null;
  readonly isAfrobeats?: boolean | null;
  readonly sortBy?: ArtistSortValue | null;
  readonly search?: string | null;
}

export interface AlbumFilter {
  readonly isAfrobeats?: boolean | null;
  readonly albumType?: AlbumType | null;
  readonly sortBy?: AlbumSortValue | null;
}

export interface RankingFilter {
  readonly isAfrobeats?: boolean | null;
  readonly country?: string | null;
}

const full = { limit: MAX_PAGE_SIZE };

export const endpoints = {
  artistsPage: (page: number, filter: ArtistFilter) =>
    request('artists', ['artists'], {
      page,
      ...full,
      letter: filter.letter,
      country: filter.country,
      isAfrobeats: filter.isAfrobeats,
      sortBy: filter.sortBy,
      q: filter.search,
    }, pageOf(readArtistSummary)),
  artist: (slug: string) => request('artist', ['artists', slug], {}, readArtistProfile),
  artistHistory: (slug: string) =>
    request('artist history', ['artists', slug, 'history'], {}, readHistory),

  // No limit: the endpoint returns all songs of the artist, which the gateway pages locally.
  songsOfArtist: (artistSlug: string) =>
    request('songs of artist', ['songs', artistSlug, 'songs'], {}, listOf(readSongSummary)),
  song: (slug: string) => request('song', ['songs', slug], {}, readSong),
  songHistory: (slug: string) => request('song history', ['songs', slug, 'history'], {}, readHistory),
  searchSongs: (title: string, artistName: string) =>
    request('song search', ['songs', 'search'], { title, artistName }, listOf(readSongSummary)),

  albumsPage: (page: number, filter: AlbumFilter) =>
    request('albums', ['albums'], {
      page,
      ...full,
      isAfrobeats: filter.isAfrobeats,
      albumType: filter.albumType,
      sortBy: filter.sortBy,
    }, pageOf(readAlbumSummary)),
  album: (slug: string) => request('album', ['albums', slug], {}, readAlbum),

  recentMilestonesPage: (page: number, isAfrobeats: boolean | null | undefined) =>
    request('recent milestones', ['milestones', 'recent'], { page, ...full, isAfrobeats }, pageOf(readMilestone)),
  artistsByTierPage: (tier: string, page: number, isAfrobeats: boolean | null | undefined) =>
    request('artists by tier', ['milestones', 'artists', tier], { page, ...full, isAfrobeats }, pageOf(readTierArtist)),
  songsByTierPage: (tier: string, page: number) =>
    request('songs by tier', ['milestones', 'songs', tier], { page, ...full }, pageOf(readTierSong)),
  timeline: (artistSlug: string) =>
    request('milestone timeline', ['milestones', 'timeline', artistSlug], {}, readTimeline(artistSlug)),
  artistStreamFact: (artistSlug: string, threshold: number) =>
    request('milestone fact', ['milestones', 'facts', artistSlug, 'streams', String(threshold)], {}, readMilestoneFact),
  artistListenerFact: (artistSlug: string, threshold: number) =>
    request('milestone fact', ['milestones', 'facts', artistSlug, 'listeners', String(threshold)], {}, readMilestoneFact),
  songStreamFact: (artistSlug: string, songSlug: string, threshold: number) =>
    request(
      'milestone fact',
      ['milestones', 'facts', artistSlug, 'songs', songSlug, 'streams', String(threshold)],
      {},
      readMilestoneFact,
    ),

  topArtistsByStreams: (filter: RankingFilter) =>
    request('leaderboard', ['leaderboard', 'streams'], { ...full, isAfrobeats: filter.isAfrobeats, country: filter.country }, readRankedArtists),
  topArtistsByListeners: (filter: RankingFilter) =>
    request('leaderboard', ['leaderboard', 'listeners'], { ...full, isAfrobeats: filter.isAfrobeats, country: filter.country }, readRankedArtists),
  topSongs: (filter: RankingFilter) =>
    request('leaderboard', ['leaderboard', 'songs'], { ...full, isAfrobeats: filter.isAfrobeats }, readRankedSongs),
  trendingArtists: (filter: RankingFilter) =>
    request('trending', ['trending', 'artists'], { ...full, isAfrobeats: filter.isAfrobeats, country: filter.country }, readRankedArtists),
  trendingSongs: (filter: RankingFilter) =>
    request('trending', ['trending', 'songs'], { ...full, isAfrobeats: filter.isAfrobeats }, readRankedSongs),

  charts: () => request('charts', ['charts'], {}, listOf(readChartSummary)),
  chart: (name: string, territory: string) =>
    request('chart', ['charts', name, territory], { limit: MAX_CHART_SIZE }, readChart),
} as const;

/** Artist stream tiers as the upstream spells them. */
export const ARTIST_TIERS = ['100m', '500m', '1b', '2b', '5b', '10b', '15b', '20b'] as const;
/** Song stream tiers as the upstream spells them. */
export const SONG_TIERS = ['50m', '100m', '500m', '1b', '2b'] as const;
