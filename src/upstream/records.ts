/**
 * Typed records the gateway reads from the upstream (upstream-api.md, Part 2).
 * Optional upstream fields are `null` when absent; resolvers never see raw JSON.
 */

export interface ArtistSummary {
  readonly id: string | null;
  readonly slug: string;
  readonly name: string;
  readonly imageUrl: string | null;
  readonly country: string | null;
  readonly isAfrobeats: boolean | null;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
  readonly monthlyListeners: number | null;
}

export interface ArtistChartRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly chartWeek: string | null;
  readonly position: number;
  readonly peakPosition: number | null;
  readonly weeksOnChart: number | null;
}

export interface AwardRecord {
  readonly name: string;
  readonly category: string | null;
  readonly year: number | null;
  readonly won: boolean;
}

export interface ArtistProfile extends ArtistSummary {
  readonly followers: number | null;
  readonly charts: readonly ArtistChartRecord[];
  readonly awards: readonly AwardRecord[];
  readonly topSongs: readonly SongSummary[];
}

/** An item of a leaderboard or trending list. */
export interface RankedRecord<T> {
  /** 1-based. */
  readonly rank: number;
  /** Trending lists only: higher is hotter. */
  readonly momentumScore: number | null;
  readonly item: T;
}

export interface TierArtistRecord {
  readonly crossedAt: string | null;
  readonly artist: ArtistSummary;
}

export interface SongSummary {
  readonly id: string | null;
  readonly slug: string;
  readonly title: string;
  readonly artistSlug: string;
  readonly artistName: string | null;
  readonly albumSlug: string | null;
  readonly releaseDate: string | null;
  readonly isAfrobeats: boolean | null;
  readonly imageUrl: string | null;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
}

export interface ArtistLink {
  readonly slug: string;
  readonly name: string | null;
}

export interface SongRecord extends SongSummary {
  readonly durationMs: number | null;
  readonly featuredArtists: readonly ArtistLink[];
}

export interface TierSongRecord {
  readonly crossedAt: string | null;
  readonly song: SongSummary;
}

export type AlbumType = 'album' | 'single' | 'ep';

export interface AlbumSummary {
  readonly id: string | null;
  readonly slug: string;
  readonly title: string;
  readonly artistSlug: string;
  readonly artistName: string | null;
  readonly albumType: AlbumType;
  readonly releaseDate: string | null;
  readonly isAfrobeats: boolean | null;
  readonly imageUrl: string | null;
  readonly trackCount: number | null;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
}

export interface TrackRecord {
  readonly trackNumber: number;
  readonly song: SongSummary;
}

export interface AlbumRecord extends AlbumSummary {
  readonly tracks: readonly TrackRecord[];
}

export interface StreamSnapshotRecord {
  readonly date: string;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
  readonly monthlyListeners: number | null;
}

export interface MilestoneRecord {
  readonly id: string;
  readonly metric: string;
  readonly threshold: number;
  readonly crossedAt: string;
  readonly isAfrobeats: boolean;
  readonly streamValue: number | null;
  readonly artistName: string | null;
  readonly artistSlug: string;
  readonly artistImageUrl: string | null;
  readonly songId: string | null;
  readonly songTitle: string | null;
}

export interface MilestoneFactRecord {
  readonly metric: string;
  readonly threshold: number;
  readonly reached: boolean;
  readonly crossedAt: string | null;
  readonly currentValue: number | null;
  readonly text: string | null;
}

export type ChartTrend = 'NEW' | 'UP' | 'DOWN' | 'SAME' | 'RE';

export interface ChartEntryRecord {
  readonly position: number;
  readonly songTitle: string;
  readonly artistName: string;
  readonly peakPosition: number;
  readonly weeksOnChart: number;
  readonly trend: ChartTrend;
  readonly delta: number;
  readonly prevRank: number | null;
}

export interface ChartRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly chartWeek: string;
  readonly total: number;
  readonly entries: readonly ChartEntryRecord[];
}

export interface ChartSummaryRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly latestWeek: string | null;
  readonly totalEntries: number | null;
}

/** One page of a paginated endpoint, with the envelope's totals. */
export interface Page<T> {
  readonly items: readonly T[];
  readonly total: number;
}
