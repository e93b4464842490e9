/**
 * Milestones are derived from the series: an artist milestone for each artist
 * tier its total streams have reached, a song milestone for each song tier.
 * The crossing day and value come from the same series the history endpoints
 * serve, so a crossing inside the 90-day window matches the snapshots exactly.
 */
import type { Catalog, SongRef } from './catalog.js';
import { crossing } from './history.js';
import { ARTIST_TIERS, SONG_TIERS, type Tier } from './model.js';

export interface Milestone {
  readonly id: string;
  readonly artist: number;
  /** Global song index, or -1 for an artist milestone. */
  readonly song: number;
  readonly tier: Tier;
  readonly day: number;
  readonly value: number;
  readonly platform: number;
}

export function buildMilestones(catalog: Catalog): Milestone[] {
  const milestones: Milestone[] = [];
  const lowestArtistTier = ARTIST_TIERS[0]?.value ?? 0;
  const lowestSongTier = SONG_TIERS[0]?.value ?? 0;
  const opaqueId = catalog.rough.milestoneIds();
  for (const artist of catalog.artists) {
    if (artist.totalStreams >= lowestArtistTier) {
      const series = catalog.artistSeries(artist.index);
      ARTIST_TIERS.forEach((tier, tierIndex) => {
        const crossed = crossing(series.total, series.firstDay, tier.value, artist.debutDay);
        if (crossed === null) return;
        milestones.push({
          id: opaqueId?.(false, artist.index, tierIndex) ?? `ms_${artist.id}_${tier.label}`,
          artist: artist.index,
          song: -1,
          tier,
          day: crossed.day,
          value: crossed.value,
          platform: artist.platform,
        });
      });
    }
    const start = catalog.songStart[artist.index] ?? 0;
    for (let local = 0; local < artist.songCount; local += 1) {
      if ((catalog.songTotal[start + local] ?? 0) < lowestSongTier) continue;
      const ref: SongRef = { artist: artist.index, local };
      const series = catalog.songSeries(ref);
      const numbers = catalog.numbers(artist.index);
      SONG_TIERS.forEach((tier, tierIndex) => {
        const crossed = crossing(
          series.total,
          series.firstDay,
          tier.value,
          numbers.releaseDay[local] ?? series.firstDay,
        );
        if (crossed === null) return;
        milestones.push({
          id:
            opaqueId?.(true, start + local, tierIndex) ??
            `ms_${songId(start + local)}_${tier.label}`,
          artist: artist.index,
          song: start + local,
          tier,
          day: crossed.day,
          value: crossed.value,
          platform: numbers.platform[local] ?? 0,
        });
      });
    }
  }
  // Newest first; ties broken so the order never depends on generation order.
  return milestones.sort(
    (a, b) => b.day - a.day || b.tier.value - a.tier.value || compareIds(a.id, b.id),
  );
}

export function songId(global: number): string {
  return `song_${String(global + 1).padStart(7, '0')}`;
}

export function albumId(global: number): string {
  return `alb_${String(global + 1).padStart(6, '0')}`;
}

function compareIds(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
