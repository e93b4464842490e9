/**
 * Pothos references to every object type, declared before any is implemented
 * so that type families can link to each other without import cycles.
 */
import type {
  ArtistChartRecord,
  AwardRecord,
  ChartEntryRecord,
  ChartRecord,
  MilestoneFactRecord,
  MilestoneRecord,
  StreamSnapshotRecord,
  TrackRecord,
} from '../upstream/records.js';
import { builder } from './builder.js';
import type { AlbumShape, ArtistShape, SongShape } from './refs.js';

export interface ChartSummaryShape {
  readonly name: string;
  readonly territory: string;
  readonly latestWeek?: string | null;
  readonly totalEntries?: number | null;
}

export interface ArtistChartPositionShape {
  readonly chart: ChartSummaryShape;
  readonly record: ArtistChartRecord;
}

export interface RankedShape<T> {
  readonly rank: number;
  readonly momentumScore: number | null;
  readonly item: T;
}

export const ArtistRef = builder.objectRef<ArtistShape>('Artist');
export const SongRef = builder.objectRef<SongShape>('Song');
export const AlbumRef = builder.objectRef<AlbumShape>('Album');
export const TrackRef = builder.objectRef<TrackRecord>('Track');
export const MilestoneRef = builder.objectRef<MilestoneRecord>('Milestone');
export const MilestoneFactRef = builder.objectRef<MilestoneFactRecord>('MilestoneFact');
export const StreamSnapshotRef = builder.objectRef<StreamSnapshotRecord>('StreamSnapshot');
export const AwardRef = builder.objectRef<AwardRecord>('Award');
export const ArtistChartPositionRef =
  builder.objectRef<ArtistChartPositionShape>('ArtistChartPosition');
export const ChartSummaryRef = builder.objectRef<ChartSummaryShape>('ChartSummary');
export const ChartRef = builder.objectRef<ChartRecord>('Chart');
export const ChartEntryRef = builder.objectRef<ChartEntryRecord>('ChartEntry');
export const RankedArtistRef = builder.objectRef<RankedShape<ArtistShape>>('RankedArtist');
export const RankedSongRef = builder.objectRef<RankedShape<SongShape>>('RankedSong');
export const TrendingArtistRef = builder.objectRef<RankedShape<ArtistShape>>('TrendingArtist');
export const TrendingSongRef = builder.objectRef<RankedShape<SongShape>>('TrendingSong');
