/**
 * The three known charts. Entries are real generated songs, picked by daily
 * streams with a per-chart taste factor; last week's ranks are then invented
 * consistently (delta = prevRank - position, peakPosition <= position) and
 * redrawn until every trend value (NEW, UP, DOWN, SAME, RE) occurs. With
 * roughness, a few entries name a song the catalogue does not hold instead.
 */
import type { Catalog } from './catalog.js';
import { lastFridayOnOrBefore } from './dates.js';
import { artistName, pickCountry, songTitle } from './names.js';
import { intBetween, type Rng, rngFor, Salt, unitHash } from './prng.js';
import { topK } from './top-k.js';
import type { ChartTrend } from './types.js';

export interface ChartDefinition {
  readonly name: string;
  readonly territory: string;
  readonly size: number;
  /** Weekly charts are dated on the latest Friday; daily ones on the data date. */
  readonly weekly: boolean;
  readonly salt: number;
  readonly homeCountry: string | null;
}

export const CHART_DEFINITIONS: readonly ChartDefinition[] = [
  {
    name: 'official_afrobeats_chart',
    territory: 'UK',
    size: 20,
    weekly: true,
    salt: 1,
    homeCountry: null,
  },
  {
    name: 'spotify_daily_ng',
    territory: 'NG',
    size: 50,
    weekly: false,
    salt: 2,
    homeCountry: 'NG',
  },
  {
    name: 'itunes_daily_ng',
    territory: 'NG',
    size: 100,
    weekly: false,
    salt: 3,
    homeCountry: 'NG',
  },
];

/** What a chart entry names when its song is not in the catalogue (a search for it finds nothing). */
export interface UnlistedSong {
  readonly songTitle: string;
  readonly artistName: string;
}

export interface ChartSlot {
  /** Global song index; when `unlisted` is set, the catalogue song whose place it took. */
  readonly song: number;
  readonly unlisted: UnlistedSong | null;
  readonly position: number;
  readonly prevRank: number | null;
  readonly peakPosition: number;
  readonly weeksOnChart: number;
  readonly trend: ChartTrend;
  readonly delta: number;
}

/** A slot before roughness decides whether its song is listed. */
type Movement = Omit<ChartSlot, 'unlisted'>;

export interface BuiltChart {
  readonly definition: ChartDefinition;
  readonly week: number;
  readonly slots: readonly ChartSlot[];
}

const ALL_TRENDS: readonly ChartTrend[] = ['NEW', 'UP', 'DOWN', 'SAME', 'RE'];
const NEWCOMER_SHARE = 0.15;
const MAX_ATTEMPTS = 200;
const NON_AFROBEATS_WEIGHT = 0.15;
const HOME_COUNTRY_WEIGHT = 2;
const UNLISTED_ATTEMPTS = 20;

export function buildCharts(catalog: Catalog): BuiltChart[] {
  return CHART_DEFINITIONS.map((definition) => {
    const songs = topK(catalog.songCount, definition.size, (g) => {
      const artist = catalog.artist(catalog.songArtist[g] ?? 0);
      const taste =
        (artist.isAfrobeats ? 1 : NON_AFROBEATS_WEIGHT) *
        (artist.country === definition.homeCountry ? HOME_COUNTRY_WEIGHT : 1);
      // The square root flattens the lead of the biggest acts so charts hold many artists.
      return (
        Math.sqrt(catalog.songDaily[g] ?? 0) *
        taste *
        (0.3 + 1.4 * unitHash(catalog.seed, Salt.chartPick, definition.salt, g))
      );
    });
    const week = definition.weekly ? lastFridayOnOrBefore(catalog.dataDay) : catalog.dataDay;
    const slots = movements(catalog.seed, definition.salt, songs).map((slot) => ({
      ...slot,
      unlisted: catalog.rough.unlistedChartEntry(definition.salt, slot.position)
        ? unlistedSong(catalog, definition.salt, slot)
        : null,
    }));
    return { definition, week, slots };
  });
}

/**
 * A song the catalogue lacks: an unknown title by the displaced song's artist,
 * or a song by an unknown artist. Checked against the search rule, so searching
 * for it finds nothing; null (the entry stays listed) if no draw qualifies.
 */
function unlistedSong(catalog: Catalog, chartSalt: number, slot: Movement): UnlistedSong | null {
  const rng = rngFor(catalog.seed, Salt.unlisted, chartSalt, slot.position + 1);
  const artist = catalog.artist(catalog.songArtist[slot.song] ?? 0);
  for (let attempt = 0; attempt < UNLISTED_ATTEMPTS; attempt += 1) {
    const name = rng() < 0.5 ? artist.name : artistName(rng, pickCountry(rng, artist.isAfrobeats));
    const title = songTitle(rng);
    if (catalog.matchSongs(title, name).length === 0) return { songTitle: title, artistName: name };
  }
  return null;
}

function movements(seed: number, salt: number, songs: readonly number[]): Movement[] {
  let slots: Movement[] = [];
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt += 1) {
    slots = drawMovements(rngFor(seed, Salt.charts, salt, attempt), songs);
    const trends = new Set(slots.map((slot) => slot.trend));
    if (songs.length < ALL_TRENDS.length || ALL_TRENDS.every((trend) => trends.has(trend))) break;
  }
  return slots;
}

function drawMovements(rng: Rng, songs: readonly number[]): Movement[] {
  const n = songs.length;
  const newcomers = Math.min(n, Math.max(2, Math.round(n * NEWCOMER_SHARE)));
  const newcomerPositions = new Set(sample(rng, n, newcomers));
  // Last week's ranks left free by songs that dropped off make room for the newcomers.
  const dropped = new Set(sample(rng, n, newcomers));
  const prevRanks: number[] = [];
  for (let rank = 1; rank <= n; rank += 1) if (!dropped.has(rank)) prevRanks.push(rank);
  for (let swaps = Math.floor(prevRanks.length / 4); swaps > 0; swaps -= 1) {
    const i = Math.floor(rng() * (prevRanks.length - 1));
    const a = prevRanks[i] ?? 0;
    prevRanks[i] = prevRanks[i + 1] ?? 0;
    prevRanks[i + 1] = a;
  }
  let newcomerCount = 0;
  let continuing = 0;
  return songs.map((song, i) => {
    const position = i + 1;
    if (newcomerPositions.has(position)) {
      newcomerCount += 1;
      const trend: ChartTrend =
        newcomerCount === 1 ? 'NEW' : newcomerCount === 2 ? 'RE' : rng() < 0.6 ? 'NEW' : 'RE';
      const peakPosition = trend === 'NEW' ? position : intBetween(rng, 1, position);
      const weeksOnChart = trend === 'NEW' ? 1 : intBetween(rng, 2, 15);
      return { song, position, prevRank: null, peakPosition, weeksOnChart, trend, delta: 0 };
    }
    const prevRank = prevRanks[continuing] ?? position;
    continuing += 1;
    const delta = prevRank - position;
    const trend: ChartTrend = delta > 0 ? 'UP' : delta < 0 ? 'DOWN' : 'SAME';
    const best = Math.min(position, prevRank);
    return {
      song,
      position,
      prevRank,
      peakPosition: intBetween(rng, Math.max(1, Math.ceil(best / 2)), best),
      weeksOnChart: intBetween(rng, 2, 40),
      trend,
      delta,
    };
  });
}

/** `count` distinct numbers from 1..n. */
function sample(rng: Rng, n: number, count: number): number[] {
  const pool = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = 0; i < count; i += 1) {
    const j = i + Math.floor(rng() * (n - i));
    const tmp = pool[i] ?? 0;
    pool[i] = pool[j] ?? 0;
    pool[j] = tmp;
  }
  return pool.slice(0, count);
}
