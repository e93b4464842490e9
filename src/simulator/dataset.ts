/** The whole generated dataset: catalogue plus the derived charts and milestones, and their lookups. */
import { Catalog } from './catalog.js';
import { type BuiltChart, buildCharts, type ChartSlot } from './charts.js';
import { formatDay } from './dates.js';
import { buildMilestones, type Milestone, songId } from './milestones.js';
import { ALBUM_TYPES, ARTIST_TIERS, SONG_TIERS, type Tier } from './model.js';
import { topK } from './top-k.js';

export type AlbumSort = 'totalStreams' | 'releaseDate' | 'dailyStreams';
export type SongRanking = 'streams' | 'momentum';
/** Leaderboards and trending lists never serve more than this many items. */
export const MAX_RANKED_ITEMS = 100;

export interface ChartPlacement {
  readonly chart: BuiltChart;
  readonly slot: ChartSlot;
}

export class Dataset {
  readonly catalog: Catalog;
  readonly charts: readonly BuiltChart[];
  /** Newest first. */
  readonly milestones: Milestone[];
  private readonly placements = new Map<number, ChartPlacement[]>();
  private readonly milestonesOfArtist = new Map<number, Milestone[]>();
  private readonly albumOrders = new Map<AlbumSort, Uint32Array>();
  private readonly rankedSongs = new Map<string, readonly number[]>();
  /** Every artist's total streams after each data day, so a reader can tell which day an answer shows. */
  private readonly totalsByDay = new Map<number, Float64Array>();

  constructor(seed: number, artistCount: number, dataDay: number, roughness = false) {
    this.catalog = new Catalog(seed, artistCount, dataDay, roughness);
    this.charts = buildCharts(this.catalog);
    this.milestones = buildMilestones(this.catalog);
    for (const chart of this.charts) {
      for (const slot of chart.slots) {
        if (slot.unlisted !== null) continue;
        const artist = this.catalog.songArtist[slot.song] ?? 0;
        const list = this.placements.get(artist) ?? [];
        list.push({ chart, slot });
        this.placements.set(artist, list);
      }
    }
    for (let i = this.milestones.length - 1; i >= 0; i -= 1) {
      const milestone = this.milestones[i];
      if (milestone === undefined) continue;
      const list = this.milestonesOfArtist.get(milestone.artist) ?? [];
      list.push(milestone);
      this.milestonesOfArtist.set(milestone.artist, list);
    }
    this.recordTotals();
  }

  get dataDate(): string {
    return formatDay(this.catalog.dataDay);
  }

  /**
   * The daily refreshes up to `dataDay` (none when it is not later): each adds
   * a day of streams and the milestones crossed that day at the head of the
   * recent list. A day on which nothing crossed gets one anyway (the artist
   * nearest its next tier reaches it), so every refresh shows new ids to a poll.
   */
  advanceTo(dataDay: number): void {
    while (this.catalog.dataDay < dataDay) {
      const c = this.catalog;
      const artistsBefore = c.artists.map((artist) => artist.totalStreams);
      const songsBefore = Float64Array.from(c.songTotal);
      c.advanceDay();
      const crossed: Milestone[] = [];
      for (const artist of c.artists) {
        for (const tier of ARTIST_TIERS)
          if ((artistsBefore[artist.index] ?? 0) < tier.value && artist.totalStreams >= tier.value)
            crossed.push(this.crossedToday(artist.index, -1, tier, artist.totalStreams));
      }
      for (let g = 0; g < c.songCount; g += 1) {
        const total = c.songTotal[g] ?? 0;
        for (const tier of SONG_TIERS)
          if ((songsBefore[g] ?? 0) < tier.value && total >= tier.value)
            crossed.push(this.crossedToday(c.songArtist[g] ?? 0, g, tier, total));
      }
      if (crossed.length === 0) crossed.push(this.nearestCrossing());
      crossed.sort((a, b) => a.tier.value - b.tier.value || (a.id < b.id ? 1 : -1));
      for (const milestone of crossed) this.addNewest(milestone);
      this.rankedSongs.clear();
      this.albumOrders.clear();
      this.recordTotals();
    }
  }

  /** The days recorded (oldest first) with the artist's total streams after each; empty for an unknown index. */
  totalsOf(artistIndex: number): { dataDay: number; totalStreams: number }[] {
    return Array.from(this.totalsByDay, ([dataDay, totals]) => ({
      dataDay,
      totalStreams: totals[artistIndex] ?? Number.NaN,
    })).filter((entry) => !Number.isNaN(entry.totalStreams));
  }

  private recordTotals(): void {
    this.totalsByDay.set(
      this.catalog.dataDay,
      Float64Array.from(this.catalog.artists, (artist) => artist.totalStreams),
    );
  }

  private crossedToday(artist: number, song: number, tier: Tier, value: number): Milestone {
    const c = this.catalog;
    return {
      id: song < 0 ? `ms_${c.artist(artist).id}_${tier.label}` : `ms_${songId(song)}_${tier.label}`,
      artist,
      song,
      tier,
      day: c.dataDay,
      value,
      platform:
        song < 0
          ? c.artist(artist).platform
          : (c.numbers(artist).platform[c.songLocal[song] ?? 0] ?? 0),
    };
  }

  /** The artist closest (by ratio) to its next tier reaches it today. */
  private nearestCrossing(): Milestone {
    const c = this.catalog;
    let best = 0;
    let bestRatio = Number.POSITIVE_INFINITY;
    for (const artist of c.artists) {
      const ratio = nextTier(artist.totalStreams).value / Math.max(1, artist.totalStreams);
      if (ratio < bestRatio) [best, bestRatio] = [artist.index, ratio];
    }
    const tier = nextTier(c.artist(best).totalStreams);
    c.setTotalStreams(best, tier.value);
    return this.crossedToday(best, -1, tier, tier.value);
  }

  private addNewest(milestone: Milestone): void {
    this.milestones.unshift(milestone);
    const list = this.milestonesOfArtist.get(milestone.artist) ?? [];
    list.push(milestone);
    this.milestonesOfArtist.set(milestone.artist, list);
  }

  /**
   * A milestone crossed while the simulator runs (tests and demos): the
   * artist's total streams pass its next tier today, and the milestone heads
   * the recent list, as after an upstream refresh.
   */
  publishMilestone(artistIndex: number): Milestone {
    const artist = this.catalog.artist(artistIndex);
    const tier = nextTier(artist.totalStreams);
    const value = tier.value + Math.max(1, artist.dailyStreams);
    this.catalog.setTotalStreams(artistIndex, value);
    this.#published += 1;
    const milestone: Milestone = {
      id: `ms_live_${this.#published}_${artist.id}_${tier.label}`,
      artist: artistIndex,
      song: -1,
      tier,
      day: this.catalog.dataDay,
      value,
      platform: artist.platform,
    };
    this.addNewest(milestone);
    return milestone;
  }

  #published = 0;

  chartPlacements(artist: number): readonly ChartPlacement[] {
    return this.placements.get(artist) ?? [];
  }

  /** Oldest first, as the timeline endpoint serves them. */
  artistMilestones(artist: number): readonly Milestone[] {
    return this.milestonesOfArtist.get(artist) ?? [];
  }

  /** Global album indices in the order of `sort` (all descending), computed on first use. */
  albumOrder(sort: AlbumSort): Uint32Array {
    let order = this.albumOrders.get(sort);
    if (order === undefined) {
      const c = this.catalog;
      const key =
        sort === 'totalStreams'
          ? c.albumTotal
          : sort === 'dailyStreams'
            ? c.albumDaily
            : c.albumRelease;
      order = Uint32Array.from({ length: c.albumCount }, (_, i) => i);
      order.sort(
        (a, b) =>
          (key[b] ?? 0) - (key[a] ?? 0) || (c.albumTotal[b] ?? 0) - (c.albumTotal[a] ?? 0) || a - b,
      );
      this.albumOrders.set(sort, order);
    }
    return order;
  }

  albumTypeIndex(type: string): number {
    return ALBUM_TYPES.indexOf(type as (typeof ALBUM_TYPES)[number]);
  }

  /** The best MAX_RANKED_ITEMS songs by total streams or momentum, optionally filtered; cached per variant. */
  topSongs(ranking: SongRanking, isAfrobeats: boolean | undefined): readonly number[] {
    const key = `${ranking}:${String(isAfrobeats)}`;
    let songs = this.rankedSongs.get(key);
    if (songs === undefined) {
      const c = this.catalog;
      const score = ranking === 'streams' ? c.songTotal : c.songScore;
      songs = topK(c.songCount, MAX_RANKED_ITEMS, (g) => {
        if (
          isAfrobeats !== undefined &&
          c.artist(c.songArtist[g] ?? 0).isAfrobeats !== isAfrobeats
        ) {
          return Number.NEGATIVE_INFINITY;
        }
        // Ties (equal scores) go to the lower index; the small fraction keeps ordering total.
        return (score[g] ?? 0) + (ranking === 'momentum' ? (c.songDaily[g] ?? 0) / 1e12 : 0);
      });
      this.rankedSongs.set(key, songs);
    }
    return songs;
  }
}

const FIVE_BILLION = 5_000_000_000;

/** The lowest known artist tier above `total`; past the last, the next multiple of five billion. */
function nextTier(total: number): Tier {
  const known = ARTIST_TIERS.find((tier) => tier.value > total);
  if (known !== undefined) return known;
  const value = (Math.floor(total / FIVE_BILLION) + 1) * FIVE_BILLION;
  return { label: `${value / 1_000_000_000}b`, value };
}
