/**
 * Typed records the gateway reads from the upstream (upstream-api.md, Part 2).
 *
 * A field is `null` when the upstream left it out, and also when it sent a
 * value that could not be read; the latter are named in `unreadable`, so the
 * schema answers UPSTREAM_INVALID_RESPONSE for them rather than a silent null.
 * Resolvers never see raw JSON.
 */

/** Fields the upstream sent but the gateway could not read (or documented fields it left out), with why. */
export interface UpstreamRecord {
  readonly unreadable?: Readonly<Record<string, string>>;
}

/** An item of an upstream list that could not be read at all, left out of the list. */
export interface DroppedRecord {
  /** Position in the upstream's list, from 0. */
  readonly index: number;
  readonly reason: string;
}

/** A list as read: the readable items in upstream order, and the ones left out. */
export interface RecordList<T> {
  readonly items: readonly T[];
  readonly dropped: readonly DroppedRecord[];
}

export interface ArtistSummary extends UpstreamRecord {
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

export interface ArtistChartRecord extends UpstreamRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly chartWeek: string | null;
  readonly position: number | null;
  readonly peakPosition: number | null;
  readonly weeksOnChart: number | null;
}

export interface AwardRecord extends UpstreamRecord {
  readonly name: string;
  readonly category: string | null;
  readonly year: number | null;
  /** From the upstream's `result`: `won` or `nominated`. */
  readonly won: boolean | null;
}

export interface ArtistProfile extends ArtistSummary {
  readonly followers: number | null;
  readonly charts: RecordList<ArtistChartRecord> | null;
  readonly awards: RecordList<AwardRecord> | null;
  readonly topSongs: RecordList<SongSummary> | null;
}

/** An item of a leaderboard or trending list. */
export interface RankedRecord<T> extends UpstreamRecord {
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

export interface SongSummary extends UpstreamRecord {
  readonly id: string | null;
  readonly slug: string;
  readonly title: string;
  readonly artistSlug: string | null;
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
  readonly featuredArtists: RecordList<ArtistLink> | null;
}

export interface TierSongRecord {
  readonly crossedAt: string | null;
  readonly song: SongSummary;
}

export type AlbumType = 'album' | 'single' | 'ep';

export interface AlbumSummary extends UpstreamRecord {
  readonly id: string | null;
  readonly slug: string;
  readonly title: string;
  readonly artistSlug: string | null;
  readonly artistName: string | null;
  readonly albumType: AlbumType | null;
  readonly releaseDate: string | null;
  readonly isAfrobeats: boolean | null;
  readonly imageUrl: string | null;
  readonly trackCount: number | null;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
}

export interface TrackRecord extends UpstreamRecord {
  readonly trackNumber: number | null;
  readonly song: SongSummary;
}

export interface AlbumRecord extends AlbumSummary {
  readonly tracks: RecordList<TrackRecord> | null;
}

export interface StreamSnapshotRecord extends UpstreamRecord {
  readonly date: string;
  readonly totalStreams: number | null;
  readonly dailyStreams: number | null;
  readonly monthlyListeners: number | null;
}

export interface MilestoneRecord extends UpstreamRecord {
  /** The upstream id, or one derived from the record's content when the upstream sent none (`idDerived`). */
  readonly id: string;
  readonly idDerived: boolean;
  /** Present on every recent milestone; a timeline record may leave it out, and `isAfrobeats` too. */
  readonly metric: string | null;
  readonly threshold: number | null;
  readonly crossedAt: string | null;
  readonly isAfrobeats: boolean | null;
  readonly streamValue: number | null;
  readonly artistName: string | null;
  readonly artistSlug: string | null;
  readonly artistImageUrl: string | null;
  readonly songId: string | null;
  readonly songTitle: string | null;
}

export interface MilestoneFactRecord extends UpstreamRecord {
  readonly metric: string;
  readonly threshold: number;
  readonly reached: boolean | null;
  readonly crossedAt: string | null;
  readonly currentValue: number | null;
  readonly text: string | null;
}

export type ChartTrend = 'NEW' | 'UP' | 'DOWN' | 'SAME' | 'RE';

export interface ChartEntryRecord extends UpstreamRecord {
  readonly position: number | null;
  readonly songTitle: string | null;
  readonly artistName: string | null;
  readonly peakPosition: number | null;
  readonly weeksOnChart: number | null;
  readonly trend: ChartTrend | null;
  readonly delta: number | null;
  readonly prevRank: number | null;
}

export interface ChartRecord extends UpstreamRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly chartWeek: string;
  /** Entries in the whole chart (`meta.total`). */
  readonly total: number | null;
  readonly entries: RecordList<ChartEntryRecord>;
}

export interface ChartSummaryRecord extends UpstreamRecord {
  readonly chartName: string;
  readonly chartTerritory: string;
  readonly latestWeek: string | null;
  readonly totalEntries: number | null;
}

/** One page of a paginated endpoint, with the envelope's totals. */
export interface Page<T> extends RecordList<T> {
  readonly total: number;
}
