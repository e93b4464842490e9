/**
 * The JSON records the simulator serves, exactly as upstream-api.md Part 2 fixes them.
 * With the `roughness` option some records lack the optional fields roughness.ts
 * names (its *Gap tables): these types stay the documented shapes, which is what
 * the rough data deliberately departs from.
 */

export interface ArtistSummary {
  id: string;
  slug: string;
  name: string;
  imageUrl: string;
  country: string;
  isAfrobeats: boolean;
  totalStreams: number;
  dailyStreams: number;
  monthlyListeners: number;
}
export interface RankedArtist extends ArtistSummary {
  rank: number;
}
export interface TrendingArtist extends RankedArtist {
  momentumScore: number;
}
export interface ArtistTierItem extends ArtistSummary {
  crossedAt: string;
  threshold: number;
}

export interface ArtistChartPosition {
  chartName: string;
  chartTerritory: string;
  chartWeek: string;
  position: number;
  peakPosition: number;
  weeksOnChart: number;
}
export interface Award {
  name: string;
  category: string;
  year: number;
  result: 'won' | 'nominated';
}
export interface ArtistProfile extends ArtistSummary {
  followers: number;
  charts: ArtistChartPosition[];
  awards: Award[];
  topSongs: SongSummary[];
}

export interface SongSummary {
  id: string;
  slug: string;
  title: string;
  artistSlug: string;
  artistName: string;
  albumSlug: string | null;
  releaseDate: string;
  isAfrobeats: boolean;
  imageUrl: string;
  totalStreams: number;
  dailyStreams: number;
}
export interface RankedSong extends SongSummary {
  rank: number;
}
export interface TrendingSong extends RankedSong {
  momentumScore: number;
}
export interface SongTierItem extends SongSummary {
  crossedAt: string;
  threshold: number;
}
export interface AlbumTrack extends SongSummary {
  trackNumber: number;
}
export interface FeaturedArtist {
  slug: string;
  name: string;
}
export interface SongRecord extends SongSummary {
  durationMs: number;
  featuredArtists: FeaturedArtist[];
}

export type AlbumType = 'album' | 'single' | 'ep';
export interface AlbumSummary {
  id: string;
  slug: string;
  title: string;
  artistSlug: string;
  artistName: string;
  albumType: AlbumType;
  releaseDate: string;
  isAfrobeats: boolean;
  imageUrl: string;
  trackCount: number;
  totalStreams: number;
  dailyStreams: number;
}
export interface AlbumRecord extends AlbumSummary {
  tracks: AlbumTrack[];
}

export interface ArtistSnapshot {
  date: string;
  totalStreams: number;
  dailyStreams: number;
  monthlyListeners: number;
}
export interface SongSnapshot {
  date: string;
  totalStreams: number;
  dailyStreams: number;
}

export interface MilestoneRecord {
  id: string;
  metric: string;
  threshold: number;
  crossedAt: string;
  isAfrobeats: boolean;
  streamValue: number;
  artistName: string;
  artistSlug: string;
  artistImageUrl: string;
  songId: string | null;
  songTitle: string | null;
}

export interface MilestoneFact {
  artistSlug: string;
  artistName: string;
  songSlug: string | null;
  songTitle: string | null;
  metric: string;
  threshold: number;
  reached: boolean;
  crossedAt: string | null;
  currentValue: number;
  text: string;
}

export type ChartTrend = 'NEW' | 'UP' | 'DOWN' | 'SAME' | 'RE';
export interface ChartEntry {
  position: number;
  songTitle: string;
  artistName: string;
  peakPosition: number;
  weeksOnChart: number;
  trend: ChartTrend;
  delta: number;
  /** null for NEW and RE entries: the song was not on last week's chart. */
  prevRank: number | null;
}
export interface ChartResponse {
  chartName: string;
  chartTerritory: string;
  chartWeek: string;
  data: ChartEntry[];
  meta: { total: number };
}
export interface ChartListItem {
  chartName: string;
  chartTerritory: string;
  latestWeek: string;
  totalEntries: number;
}

export interface PageMeta {
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}
export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

export interface ErrorBody {
  statusCode: number;
  error: string;
  message: string;
}
