/** Internal, compact representation of the generated dataset, and the fixed vocabularies. */
import type { Country } from './names.js';
import type { AlbumType } from './types.js';

export const HISTORY_DAYS = 90;

export interface Tier {
  readonly label: string;
  readonly value: number;
}

const MILLION = 1_000_000;
const BILLION = 1_000_000_000;

export const ARTIST_TIERS: readonly Tier[] = [
  { label: '100m', value: 100 * MILLION },
  { label: '500m', value: 500 * MILLION },
  { label: '1b', value: BILLION },
  { label: '2b', value: 2 * BILLION },
  { label: '5b', value: 5 * BILLION },
  { label: '10b', value: 10 * BILLION },
  { label: '15b', value: 15 * BILLION },
  { label: '20b', value: 20 * BILLION },
];

export const SONG_TIERS: readonly Tier[] = [
  { label: '50m', value: 50 * MILLION },
  { label: '100m', value: 100 * MILLION },
  { label: '500m', value: 500 * MILLION },
  { label: '1b', value: BILLION },
  { label: '2b', value: 2 * BILLION },
];

export const PLATFORMS = ['spotify', 'apple_music', 'audiomack', 'youtube'] as const;
export type Platform = (typeof PLATFORMS)[number];
/** Relative weights used when a milestone's platform is drawn. */
export const PLATFORM_WEIGHTS: readonly (readonly [number, number])[] = [
  [0, 55],
  [1, 15],
  [2, 10],
  [3, 20],
];

export const ALBUM_TYPES: readonly AlbumType[] = ['album', 'single', 'ep'];

export interface ArtistCore {
  readonly index: number;
  readonly id: string;
  readonly slug: string;
  readonly name: string;
  readonly nameLower: string;
  readonly imageUrl: string;
  readonly country: Country;
  readonly isAfrobeats: boolean;
  readonly totalStreams: number;
  readonly dailyStreams: number;
  readonly monthlyListeners: number;
  readonly followers: number;
  /** Growth factor of daily streams over the 90-day window; above 1 means rising. */
  readonly momentum: number;
  readonly momentumScore: number;
  readonly debutDay: number;
  readonly platform: number;
  readonly songCount: number;
  /** Rank by total streams, 0-based. */
  readonly popularityRank: number;
  /** Optional fields the artist's records lack (ArtistGap bits, see roughness.ts); 0 when complete. */
  readonly gaps: number;
}

export interface AlbumNumbers {
  readonly type: AlbumType;
  readonly releaseDay: number;
  /** Local song indices in track order. */
  readonly tracks: readonly number[];
  readonly total: number;
  readonly daily: number;
}

/** Numeric facts of one artist's songs; cheap to regenerate, so only indexes of them are kept. */
export interface SongNumbers {
  readonly total: Float64Array;
  readonly daily: Float64Array;
  readonly releaseDay: Int32Array;
  readonly momentum: Float32Array;
  /** Album (local index) of each song, -1 for none. */
  readonly album: Int32Array;
  readonly trackNumber: Uint16Array;
  readonly platform: Uint8Array;
  readonly albums: readonly AlbumNumbers[];
}

/** Text facts of one artist's songs and albums, generated lazily and cached in an LRU. */
export interface ArtistText {
  readonly songTitles: readonly string[];
  readonly songSlugs: readonly string[];
  readonly durationMs: readonly number[];
  /** Artist indices of the featured artists of each song. */
  readonly featured: readonly (readonly number[])[];
  readonly songBySlug: ReadonlyMap<string, number>;
  readonly albumTitles: readonly string[];
  readonly albumSlugs: readonly string[];
  readonly albumBySlug: ReadonlyMap<string, number>;
}
