/** The whole generated dataset: catalogue plus the derived charts and milestones, and their lookups. */
import { Catalog } from './catalog.js';
import { type BuiltChart, buildCharts, type ChartSlot } from './charts.js';
import { formatDay } from './dates.js';
import { buildMilestones, type Milestone } from './milestones.js';
import { ALBUM_TYPES, ARTIST_TIERS, type Tier } from './model.js';
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
  readonly dataDate: string;
  readonly charts: readonly BuiltChart[];
  /** Newest first. */
  readonly milestones: Milestone[];
  private readonly placements = new Map<number, ChartPlacement[]>();
  private readonly milestonesOfArtist = new Map<number, Milestone[]>();
  private readonly albumOrders = new Map<AlbumSort, Uint32Array>();
  private readonly rankedSongs = new Map<string, readonly number[]>();

  constructor(seed: number, artistCount: number, dataDay: number, roughness = false) {
    this.catalog = new Catalog(seed, artistCount, dataDay, roughness);
    this.dataDate = formatDay(dataDay);
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
    this.milestones.unshift(milestone);
    const list = this.milestonesOfArtist.get(artistIndex) ?? [];
    list.push(milestone);
    this.milestonesOfArtist.set(artistIndex, list);
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
