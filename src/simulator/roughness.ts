/**
 * The upstream's roughness (option `roughness`, off by default): records that lack
 * optional fields, chart entries naming songs outside the catalogue, artists with
 * two songs of one title, and milestone ids that carry no order. Every decision is
 * a hash of the seed and the record's own index, never a draw from a shared
 * stream, so the smooth dataset stays exactly as it was and a record looks the
 * same from every endpoint that serves it.
 */
import { hash32, Salt, unitHash } from './prng.js';

/** Share of the records of each kind that lack at least one optional field. */
const GAP_SHARE = 0.12;
/** Share of the artists that have a re-release: a second song with the title of an earlier one. */
const RERELEASE_SHARE = 0.15;
/** Share of the chart entries that name a song the catalogue does not hold. */
const UNLISTED_SHARE = 0.1;

/** Bit numbers of the optional fields a record may lack, per record kind. */
export const ArtistGap = {
  imageUrl: 0,
  country: 1,
  dailyStreams: 2,
  followers: 3,
  momentumScore: 4,
} as const;
export const SongGap = {
  albumSlug: 0,
  releaseDate: 1,
  imageUrl: 2,
  durationMs: 3,
  momentumScore: 4,
} as const;
export const AlbumGap = { imageUrl: 0, trackCount: 1 } as const;
export const AwardGap = { category: 0, year: 1 } as const;

const Kind = { artist: 1, song: 2, album: 3, award: 4 } as const;

export function lacks(gaps: number, bit: number): boolean {
  return (gaps & (1 << bit)) !== 0;
}

/**
 * The record without the fields whose gap bits are set; the record itself when it
 * lacks none. Still typed as the full record: the missing fields are the point.
 */
export function omitGaps<T extends object>(
  record: T,
  gaps: number,
  bits: { readonly [K in keyof T]?: number },
): T {
  if (gaps === 0) return record;
  const copy: Partial<T> = { ...record };
  for (const field of Object.keys(bits) as (keyof T)[]) {
    const bit = bits[field];
    if (bit !== undefined && lacks(gaps, bit)) delete copy[field];
  }
  return copy as T;
}

export class Roughness {
  private readonly gapKey: number;
  private readonly fieldKey: number;

  constructor(
    readonly enabled: boolean,
    private readonly seed: number,
  ) {
    this.gapKey = hash32(seed, Salt.gaps);
    this.fieldKey = hash32(seed, Salt.gapFields);
  }

  /** Set of the artist's missing optional fields (ArtistGap bits); 0 when complete. */
  artistGaps(artistIndex: number): number {
    return this.gaps(Kind.artist, artistIndex, 0, Object.keys(ArtistGap).length);
  }

  songGaps(songGlobal: number): number {
    return this.gaps(Kind.song, songGlobal, 0, Object.keys(SongGap).length);
  }

  albumGaps(albumGlobal: number): number {
    return this.gaps(Kind.album, albumGlobal, 0, Object.keys(AlbumGap).length);
  }

  awardGaps(artistIndex: number, award: number): number {
    return this.gaps(Kind.award, artistIndex, award, Object.keys(AwardGap).length);
  }

  /** For an artist with a re-release: which song (local index, at least 1) repeats the title of which earlier one. */
  rerelease(
    artistIndex: number,
    songCount: number,
  ): { readonly song: number; readonly original: number } | null {
    if (
      !this.enabled ||
      songCount < 2 ||
      unitHash(this.seed, Salt.rerelease, artistIndex) >= RERELEASE_SHARE
    )
      return null;
    const song = 1 + (hash32(this.seed, Salt.rerelease, artistIndex, 1) % (songCount - 1));
    return { song, original: hash32(this.seed, Salt.rerelease, artistIndex, 2) % song };
  }

  /** Whether the entry at `position` of a chart names a song outside the catalogue. */
  unlistedChartEntry(chartSalt: number, position: number): boolean {
    return this.enabled && unitHash(this.seed, Salt.unlisted, chartSalt, position) < UNLISTED_SHARE;
  }

  /**
   * Opaque milestone ids (`ms_` and 16 hex digits), hashed from the milestone's
   * subject and tier so they stay stable but say nothing of time; null when smooth.
   * The returned maker remembers its ids and rehashes the rare collision.
   */
  milestoneIds(): ((isSong: boolean, subject: number, tierIndex: number) => string) | null {
    if (!this.enabled) return null;
    const taken = new Set<string>();
    return (isSong, subject, tierIndex) => {
      for (let attempt = 0; ; attempt += 1) {
        const high = hash32(
          hash32(this.seed, Salt.milestoneIds, attempt),
          Number(isSong),
          subject,
          tierIndex,
        );
        const low = hash32(
          hash32(this.seed, Salt.milestoneIds, attempt, 1),
          Number(isSong),
          subject,
          tierIndex,
        );
        const id = `ms_${hex(high)}${hex(low)}`;
        if (!taken.has(id)) {
          taken.add(id);
          return id;
        }
      }
    };
  }

  private gaps(kind: number, index: number, sub: number, fieldCount: number): number {
    if (!this.enabled || unitHash(this.gapKey, kind, index, sub) >= GAP_SHARE) return 0;
    // A non-empty subset of the kind's fields, each subset equally likely.
    return (hash32(this.fieldKey, kind, index, sub) % (2 ** fieldCount - 1)) + 1;
  }
}

function hex(value: number): string {
  return value.toString(16).padStart(8, '0');
}
