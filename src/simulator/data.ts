/**
 * Typed read access to the generated dataset: the operations behind every
 * endpoint, without HTTP. The routes validate parameters and call these; tests
 * call them directly to know what the API will answer.
 */
import type { AlbumSort, Dataset } from './dataset.js';
import { MAX_RANKED_ITEMS } from './dataset.js';
import { formatDay, parseDay } from './dates.js';
import type { Milestone } from './milestones.js';
import { ARTIST_TIERS, type ArtistCore, SONG_TIERS } from './model.js';
import {
  albumRecord,
  albumSummary,
  artistHistory,
  artistListenersFact,
  artistProfile,
  artistStreamsFact,
  artistSummary,
  chartListItem,
  chartResponse,
  milestoneRecord,
  songHistory,
  songRecord,
  songStreamsFact,
  songSummary,
  songsByStreams,
  trendingArtist,
  trendingSong,
} from './records.js';
import { ArtistGap, lacks } from './roughness.js';
import type {
  AlbumRecord,
  AlbumSummary,
  AlbumType,
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
} from './types.js';

export const DEFAULT_PAGE = 1;
export const DEFAULT_LIMIT = 20;
/** The search endpoint answers at most this many songs (exact matches first). */
export const SEARCH_MAX_RESULTS = 100;

export type ArtistSort = 'name' | 'totalStreams' | 'monthlyListeners';
export type { AlbumSort } from './dataset.js';

export interface PageQuery {
  page?: number;
  limit?: number;
}
export interface ArtistQuery extends PageQuery {
  letter?: string;
  country?: string;
  isAfrobeats?: boolean;
  sortBy?: ArtistSort;
  q?: string;
}
export interface AlbumQuery extends PageQuery {
  isAfrobeats?: boolean;
  albumType?: AlbumType;
  sortBy?: AlbumSort;
}
export interface MilestoneQuery extends PageQuery {
  isAfrobeats?: boolean;
}
export interface RankQuery {
  limit?: number;
  isAfrobeats?: boolean;
  country?: string;
}

export interface SimulatorData {
  readonly seed: number;
  /** YYYY-MM-DD of the latest snapshot; moves on at each daily refresh (refreshTo). */
  readonly dataDate: string;
  readonly artistCount: number;
  readonly songCount: number;
  readonly albumCount: number;
  /** Every artist, in leaderboard order (total streams descending). */
  allArtists(): ArtistSummary[];
  artists(query?: ArtistQuery): Page<ArtistSummary>;
  artistBySlug(slug: string): ArtistProfile | null;
  artistHistory(slug: string): ArtistSnapshot[] | null;
  searchSongs(title: string, artistName: string): SongSummary[];
  songBySlug(slug: string): SongRecord | null;
  songHistory(slug: string): SongSnapshot[] | null;
  /** By total streams descending; null when the artist does not exist. */
  songsOfArtist(artistSlug: string, limit?: number): SongSummary[] | null;
  albumsOfArtist(artistSlug: string): AlbumSummary[] | null;
  albums(query?: AlbumQuery): Page<AlbumSummary>;
  albumBySlug(slug: string): AlbumRecord | null;
  recentMilestones(query?: MilestoneQuery): Page<MilestoneRecord>;
  /** null for an unknown tier label. */
  milestonesByArtistTier(tier: string, query?: MilestoneQuery): Page<ArtistTierItem> | null;
  milestonesBySongTier(tier: string, query?: MilestoneQuery): Page<SongTierItem> | null;
  /** Artist and song milestones of the artist, oldest first; null when the artist does not exist. */
  milestoneTimeline(artistSlug: string): MilestoneRecord[] | null;
  artistStreamsFact(artistSlug: string, threshold: number): MilestoneFact | null;
  artistListenersFact(artistSlug: string, threshold: number): MilestoneFact | null;
  /** null when the artist does not exist or the song is not one of the artist's. */
  songStreamsFact(artistSlug: string, songSlug: string, threshold: number): MilestoneFact | null;
  leaderboardStreams(query?: RankQuery): RankedArtist[];
  leaderboardListeners(query?: RankQuery): RankedArtist[];
  leaderboardSongs(query?: RankQuery): RankedSong[];
  trendingArtists(query?: RankQuery): TrendingArtist[];
  trendingSongs(query?: RankQuery): TrendingSong[];
  charts(): ChartListItem[];
  /** All entries unless `limit` is given; null for an unknown chart or territory. */
  chart(chartName: string, territory: string, limit?: number): ChartResponse | null;
  /**
   * Publishes a new milestone of the artist (default: the next one in
   * leaderboard order at each call) and raises its total streams past the
   * tier; null for an unknown slug.
   */
  publishMilestone(artistSlug?: string): MilestoneRecord | null;
  /**
   * The upstream's daily refreshes up to `dataDate` (nothing when it is not
   * later): a day of streams more for everyone, that day's new milestones first
   * in the recent list (at least one a day).
   */
  refreshTo(dataDate: string): void;
  /** The artist's total streams after each data day so far, oldest first; null for an unknown slug. */
  totalsOf(artistSlug: string): { dataDate: string; totalStreams: number }[] | null;
}

export function createSimulatorData(ds: Dataset): SimulatorData {
  const c = ds.catalog;
  const artistMatches = (artist: ArtistCore, query: ArtistQuery | RankQuery): boolean =>
    (query.isAfrobeats === undefined || artist.isAfrobeats === query.isAfrobeats) &&
    (query.country === undefined ||
      (artist.country === query.country.toUpperCase() && !lacks(artist.gaps, ArtistGap.country)));
  const rankedArtists = (order: Uint32Array, query: RankQuery): ArtistCore[] => {
    const limit = query.limit ?? DEFAULT_LIMIT;
    const result: ArtistCore[] = [];
    for (let i = 0; i < order.length && result.length < limit; i += 1) {
      const artist = c.artist(order[i] ?? 0);
      if (artistMatches(artist, query)) result.push(artist);
    }
    return result;
  };
  const tierPage = <T>(
    labelTier: string,
    songTier: boolean,
    query: MilestoneQuery,
    shape: (m: Milestone) => T,
  ): Page<T> | null => {
    const tier = (songTier ? SONG_TIERS : ARTIST_TIERS).find((t) => t.label === labelTier);
    if (tier === undefined) return null;
    const items = ds.milestones.filter(
      (m) =>
        m.song >= 0 === songTier &&
        m.tier === tier &&
        (query.isAfrobeats === undefined || c.artist(m.artist).isAfrobeats === query.isAfrobeats),
    );
    return paginate(items, query, shape);
  };

  let nextPublished = 0;
  return {
    seed: c.seed,
    get dataDate() {
      return ds.dataDate;
    },
    artistCount: c.artists.length,
    songCount: c.songCount,
    albumCount: c.albumCount,

    allArtists: () => Array.from(c.artistsByStreams, (i) => artistSummary(c.artist(i))),

    artists(query = {}) {
      const order =
        query.sortBy === 'name'
          ? c.artistsByName
          : query.sortBy === 'monthlyListeners'
            ? c.artistsByListeners
            : c.artistsByStreams;
      const letter = query.letter?.toLowerCase();
      const q = query.q?.toLowerCase();
      const items: ArtistCore[] = [];
      for (const index of order) {
        const artist = c.artist(index);
        if (!artistMatches(artist, query)) continue;
        if (letter !== undefined && !artist.nameLower.startsWith(letter)) continue;
        if (q !== undefined && !artist.nameLower.includes(q)) continue;
        items.push(artist);
      }
      return paginate(items, query, artistSummary);
    },

    artistBySlug: (slug) => withArtist(slug, (artist) => artistProfile(ds, artist)),
    artistHistory: (slug) => withArtist(slug, (artist) => artistHistory(ds, artist.index)),

    searchSongs(title, artistName) {
      const found = c.matchSongs(title, artistName);
      found.sort(
        (x, y) =>
          Number(y.exact) - Number(x.exact) ||
          (c.songTotal[y.g] ?? 0) - (c.songTotal[x.g] ?? 0) ||
          x.g - y.g,
      );
      return found.slice(0, SEARCH_MAX_RESULTS).map(({ g }) => songSummary(ds, c.songRefOf(g)));
    },

    songBySlug(slug) {
      const ref = c.findSong(slug);
      return ref === null ? null : songRecord(ds, ref);
    },
    songHistory(slug) {
      const ref = c.findSong(slug);
      return ref === null ? null : songHistory(ds, ref);
    },
    songsOfArtist: (slug, limit) =>
      withArtist(slug, (artist) => songsByStreams(ds, artist.index).slice(0, limit)),
    albumsOfArtist: (slug) =>
      withArtist(slug, (artist) => {
        const list: AlbumSummary[] = [];
        for (
          let g = c.albumStart[artist.index] ?? 0;
          g < (c.albumStart[artist.index + 1] ?? 0);
          g += 1
        )
          list.push(albumSummary(ds, g));
        return list;
      }),

    albums(query = {}) {
      const order = ds.albumOrder(query.sortBy ?? 'totalStreams');
      const type = query.albumType === undefined ? -1 : ds.albumTypeIndex(query.albumType);
      const items: number[] = [];
      for (const g of order) {
        if (type >= 0 && c.albumType[g] !== type) continue;
        if (
          query.isAfrobeats !== undefined &&
          c.artist(c.albumArtist[g] ?? 0).isAfrobeats !== query.isAfrobeats
        )
          continue;
        items.push(g);
      }
      return paginate(items, query, (g) => albumSummary(ds, g));
    },
    albumBySlug(slug) {
      const ref = c.findAlbum(slug);
      return ref === null ? null : albumRecord(ds, (c.albumStart[ref.artist] ?? 0) + ref.local);
    },

    recentMilestones(query = {}) {
      const items =
        query.isAfrobeats === undefined
          ? ds.milestones
          : ds.milestones.filter((m) => c.artist(m.artist).isAfrobeats === query.isAfrobeats);
      return paginate(items, query, (m) => milestoneRecord(ds, m));
    },
    milestonesByArtistTier: (tier, query = {}) =>
      tierPage(tier, false, query, (m) => ({
        ...artistSummary(c.artist(m.artist)),
        crossedAt: milestoneRecord(ds, m).crossedAt,
        threshold: m.tier.value,
      })),
    milestonesBySongTier: (tier, query = {}) =>
      tierPage(tier, true, query, (m) => ({
        ...songSummary(ds, c.songRefOf(m.song)),
        crossedAt: milestoneRecord(ds, m).crossedAt,
        threshold: m.tier.value,
      })),
    milestoneTimeline: (slug) =>
      withArtist(slug, (artist) =>
        ds.artistMilestones(artist.index).map((m) => milestoneRecord(ds, m)),
      ),

    artistStreamsFact: (slug, threshold) =>
      withArtist(slug, (artist) => artistStreamsFact(ds, artist, threshold)),
    artistListenersFact: (slug, threshold) =>
      withArtist(slug, (artist) => artistListenersFact(ds, artist, threshold)),
    songStreamsFact(artistSlug, songSlug, threshold) {
      const artist = c.findArtist(artistSlug);
      const ref = artist === null ? null : c.findSong(songSlug);
      if (artist === null || ref === null || ref.artist !== artist.index) return null;
      return songStreamsFact(ds, ref, threshold);
    },

    leaderboardStreams: (query = {}) =>
      rankedArtists(c.artistsByStreams, query).map((a, i) => ({
        ...artistSummary(a),
        rank: i + 1,
      })),
    leaderboardListeners: (query = {}) =>
      rankedArtists(c.artistsByListeners, query).map((a, i) => ({
        ...artistSummary(a),
        rank: i + 1,
      })),
    leaderboardSongs: (query = {}) =>
      ds
        .topSongs('streams', query.isAfrobeats)
        .slice(0, query.limit ?? DEFAULT_LIMIT)
        .map((g, i) => ({ ...songSummary(ds, c.songRefOf(g)), rank: i + 1 })),
    trendingArtists: (query = {}) =>
      rankedArtists(c.artistsByMomentum, query).map((a, i) => trendingArtist(a, i + 1)),
    trendingSongs: (query = {}) =>
      ds
        .topSongs('momentum', query.isAfrobeats)
        .slice(0, Math.min(query.limit ?? DEFAULT_LIMIT, MAX_RANKED_ITEMS))
        .map((g, i) => trendingSong(ds, g, i + 1)),

    charts: () => ds.charts.map(chartListItem),
    chart(chartName, territory, limit) {
      const chart = ds.charts.find(
        (x) => x.definition.name === chartName && x.definition.territory === territory,
      );
      return chart === undefined ? null : chartResponse(ds, chart, limit ?? chart.slots.length);
    },

    publishMilestone,
    refreshTo: (dataDate) => ds.advanceTo(parseDay(dataDate)),
    totalsOf: (slug) =>
      withArtist(slug, (artist) =>
        ds.totalsOf(artist.index).map(({ dataDay, totalStreams }) => ({
          dataDate: formatDay(dataDay),
          totalStreams,
        })),
      ),
  };

  function publishMilestone(artistSlug?: string): MilestoneRecord | null {
    const artist =
      artistSlug === undefined
        ? c.artist(c.artistsByStreams[nextPublished++ % c.artists.length] ?? 0)
        : c.findArtist(artistSlug);
    return artist === null ? null : milestoneRecord(ds, ds.publishMilestone(artist.index));
  }

  function withArtist<T>(slug: string, use: (artist: ArtistCore) => T): T | null {
    const artist = c.findArtist(slug);
    return artist === null ? null : use(artist);
  }
}

function paginate<S, T>(items: readonly S[], query: PageQuery, shape: (item: S) => T): Page<T> {
  const page = query.page ?? DEFAULT_PAGE;
  const limit = query.limit ?? DEFAULT_LIMIT;
  const start = (page - 1) * limit;
  return {
    data: items.slice(start, start + limit).map(shape),
    meta: { total: items.length, page, limit, totalPages: Math.ceil(items.length / limit) },
  };
}
