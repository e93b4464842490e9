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

import { requirePathValues } from './path-values.js';
import {
  listOf,
  pageOf,
  type Reader,
  readAlbum,
  readAlbumSummary,
  readArtistProfile,
  readArtistSummary,
  readChart,
  readChartSummary,
  readHistory,
  readMilestoneFact,
  readMilestonePage,
  readRankedArtists,
  readRankedSongs,
  readSong,
  readSongSummary,
  readSongsOf,
  readTierArtist,
  readTierSong,
  readTimeline,
} from './readers.js';
import type { AlbumType, Page, RecordList, SongSummary } from './records.js';

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
  /**
   * What the gateway assumes where the upstream description is silent about
   * this request; logged once as a warning if the upstream refuses it (400).
   */
  readonly assumption?: string;
  /** For a page of a paginated list: the list it belongs to. */
  readonly list?: ListOfPages<T>;
  /**
   * For a record that changes only when its artist crosses a new milestone (the artist's
   * timeline): that artist's slug. The refresh poll reads the newest milestones anyway, so it
   * tells whether such a record changed without a call for it.
   */
  readonly changesOnlyWithMilestonesOf?: string;
}

/**
 * The whole list a page belongs to: the same filter, any page. Every page's
 * envelope tells the list's length, so once one page is read, any offset at
 * or past that length is known to be empty without another call.
 */
export interface ListOfPages<T> {
  /** The page's key without its page number: the same for every page of the list. */
  readonly key: string;
  /** The list's length, as the page's envelope gives it (method syntax: any page type). */
  totalOf(page: T): number;
}

/**
 * Where the upstream description is silent, the gateway assumes; each
 * assumption is a setting (README, "Upstream assumptions") so that an
 * operator can follow the real upstream without a code change.
 */
export interface UpstreamAssumptions {
  /** `limit` sent to the songs-of-artist endpoint, whose default and maximum are not documented. */
  readonly songsOfArtistLimit: number;
  /** `limit` sent to leaderboards and trending lists (documented maximum: 100 for streams only). */
  readonly rankingLimit: number;
}

export const DEFAULT_ASSUMPTIONS: UpstreamAssumptions = {
  songsOfArtistLimit: 100,
  rankingLimit: 100,
};

const LETTER_OPTIONAL =
  'GET /artists is called without `letter` (documented as required, but omitted in its usage example) when no letter filter is asked for';
const TIER_FILTER_OPTIONAL =
  'GET /milestones/artists/{tier} is called without `isAfrobeats` (documented as required) when no filter is asked for';
const rankingLimitAccepted = (limit: number) =>
  `leaderboards and trending lists accept limit=${limit} (UPSTREAM_RANKING_LIMIT; only /leaderboard/streams documents 100)`;

/** Percent-encodes each segment on its own, so no value can add or climb a path level. */
export function buildPath(
  segments: readonly string[],
  query: Record<string, QueryValue> = {},
): string {
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
  assumption?: string,
): UpstreamRequest<T> {
  requirePathValues(segments);
  return {
    key: buildPath(segments, query),
    resource,
    read,
    ...(assumption === undefined ? {} : { assumption }),
  };
}

/** Page `page` (1-based) of a paginated list, always at the endpoint's maximum size. */
function pageRequest<T>(
  resource: string,
  segments: readonly string[],
  page: number,
  filter: Record<string, QueryValue>,
  read: Reader<Page<T>>,
  assumption?: string,
): UpstreamRequest<Page<T>> {
  const query = Object.assign({}, filter, { limit: MAX_PAGE_SIZE });
  return Object.assign(
    request(resource, segments, Object.assign({}, query, { page }), read, assumption),
    {
      list: { key: buildPath(segments, query), totalOf: (answer: Page<T>) => answer.total },
    },
  );
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

function ranking<T>(
  resource: string,
  segments: readonly string[],
  filter: RankingFilter,
  limit: number,
  read: Reader<T>,
): UpstreamRequest<T> {
  return request(
    resource,
    segments,
    { limit, isAfrobeats: filter.isAfrobeats, country: filter.country },
    read,
    rankingLimitAccepted(limit),
  );
}

/** Songs of an artist, with a warning note when the answer is as long as the limit and so perhaps cut short. */
function songsUpTo(artistSlug: string, limit: number): Reader<RecordList<SongSummary>> {
  const read = listOf(readSongsOf(artistSlug));
  return (body, notes) => {
    const list = read(body, notes);
    if (list.items.length + list.dropped.length >= limit) {
      notes.add(
        '',
        'limit',
        limit,
        `as many songs as the limit sent: the list may be cut short (UPSTREAM_SONGS_OF_ARTIST_LIMIT)`,
      );
    }
    return list;
  };
}

/**
 * Requests of one record each, at most this many per endpoint kept made: a page of one artist
 * asks for the same few records in several fields, and pages of the same artists follow one
 * another, so a request is looked up far more often than built. Past it, all are built again.
 */
const REQUESTS_KEPT = 2_048;

/**
 * `build`, made once per argument: a request is an immutable descriptor, and building one (the
 * path's checks and encoding, its reader) cost more than a lookup. A value `build` refuses
 * throws each time, and nothing is kept for it.
 */
function kept<A extends string | number, T>(
  build: (argument: A) => UpstreamRequest<T>,
): (argument: A) => UpstreamRequest<T> {
  const made = new Map<A, UpstreamRequest<T>>();
  return (argument) => {
    let request = made.get(argument);
    if (request === undefined) {
      request = build(argument);
      if (made.size >= REQUESTS_KEPT) made.clear();
      made.set(argument, request);
    }
    return request;
  };
}

/** The songs of each artist, made once per artist and limit (the limit is a setting: one). */
const songsOfArtistByLimit = new Map<
  number,
  (artistSlug: string) => UpstreamRequest<RecordList<SongSummary>>
>();

export const endpoints = {
  artistsPage: (page: number, filter: ArtistFilter) =>
    pageRequest(
      'artists',
      ['artists'],
      page,
      {
        letter: filter.letter,
        country: filter.country,
        isAfrobeats: filter.isAfrobeats,
        sortBy: filter.sortBy,
        q: filter.search,
      },
      pageOf(readArtistSummary),
      filter.letter == null ? LETTER_OPTIONAL : undefined,
    ),
  artist: kept((slug: string) => request('artist', ['artists', slug], {}, readArtistProfile)),
  artistHistory: kept((slug: string) =>
    request('artist history', ['artists', slug, 'history'], {}, readHistory),
  ),

  // All songs of the artist in one call (paged locally); a full answer may have been cut at the limit.
  songsOfArtist: (artistSlug: string, limit: number) => {
    let ofLimit = songsOfArtistByLimit.get(limit);
    if (ofLimit === undefined) {
      ofLimit = kept((slug: string) =>
        request('songs of artist', ['songs', slug, 'songs'], { limit }, songsUpTo(slug, limit)),
      );
      songsOfArtistByLimit.set(limit, ofLimit);
    }
    return ofLimit(artistSlug);
  },
  song: kept((slug: string) => request('song', ['songs', slug], {}, readSong)),
  songHistory: kept((slug: string) =>
    request('song history', ['songs', slug, 'history'], {}, readHistory),
  ),
  searchSongs: (title: string, artistName: string) =>
    request('song search', ['songs', 'search'], { title, artistName }, listOf(readSongSummary)),

  albumsPage: (page: number, filter: AlbumFilter) =>
    pageRequest(
      'albums',
      ['albums'],
      page,
      {
        isAfrobeats: filter.isAfrobeats,
        albumType: filter.albumType,
        sortBy: filter.sortBy,
      },
      pageOf(readAlbumSummary),
    ),
  album: kept((slug: string) => request('album', ['albums', slug], {}, readAlbum)),

  recentMilestonesPage: (page: number, isAfrobeats: boolean | null | undefined) =>
    pageRequest(
      'recent milestones',
      ['milestones', 'recent'],
      page,
      { isAfrobeats },
      readMilestonePage,
    ),
  artistsByTierPage: (tier: string, page: number, isAfrobeats: boolean | null | undefined) =>
    pageRequest(
      'artists by tier',
      ['milestones', 'artists', tier],
      page,
      { isAfrobeats },
      pageOf(readTierArtist),
      isAfrobeats == null ? TIER_FILTER_OPTIONAL : undefined,
    ),
  songsByTierPage: (tier: string, page: number) =>
    pageRequest('songs by tier', ['milestones', 'songs', tier], page, {}, pageOf(readTierSong)),
  timeline: kept((artistSlug: string) =>
    Object.assign(
      request(
        'milestone timeline',
        ['milestones', 'timeline', artistSlug],
        {},
        readTimeline(artistSlug),
      ),
      { changesOnlyWithMilestonesOf: artistSlug },
    ),
  ),
  artistStreamFact: (artistSlug: string, threshold: number) =>
    request(
      'milestone fact',
      ['milestones', 'facts', artistSlug, 'streams', String(threshold)],
      {},
      readMilestoneFact(threshold),
    ),
  artistListenerFact: (artistSlug: string, threshold: number) =>
    request(
      'milestone fact',
      ['milestones', 'facts', artistSlug, 'listeners', String(threshold)],
      {},
      readMilestoneFact(threshold),
    ),
  songStreamFact: (artistSlug: string, songSlug: string, threshold: number) =>
    request(
      'milestone fact',
      ['milestones', 'facts', artistSlug, 'songs', songSlug, 'streams', String(threshold)],
      {},
      readMilestoneFact(threshold),
    ),

  topArtistsByStreams: (filter: RankingFilter, limit: number) =>
    ranking('leaderboard', ['leaderboard', 'streams'], filter, limit, readRankedArtists),
  topArtistsByListeners: (filter: RankingFilter, limit: number) =>
    ranking('leaderboard', ['leaderboard', 'listeners'], filter, limit, readRankedArtists),
  topSongs: (filter: RankingFilter, limit: number) =>
    ranking(
      'leaderboard',
      ['leaderboard', 'songs'],
      { isAfrobeats: filter.isAfrobeats },
      limit,
      readRankedSongs,
    ),
  trendingArtists: (filter: RankingFilter, limit: number) =>
    ranking('trending', ['trending', 'artists'], filter, limit, readRankedArtists),
  trendingSongs: (filter: RankingFilter, limit: number) =>
    ranking(
      'trending',
      ['trending', 'songs'],
      { isAfrobeats: filter.isAfrobeats },
      limit,
      readRankedSongs,
    ),

  charts: () => request('charts', ['charts'], {}, listOf(readChartSummary)),
  chart: (name: string, territory: string) =>
    request('chart', ['charts', name, territory], { limit: MAX_CHART_SIZE }, readChart),
} as const;

/** Artist stream tiers as the upstream spells them. */
export const ARTIST_TIERS = ['100m', '500m', '1b', '2b', '5b', '10b', '15b', '20b'] as const;
/** Song stream tiers as the upstream spells them. */
export const SONG_TIERS = ['50m', '100m', '500m', '1b', '2b'] as const;
