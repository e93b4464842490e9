/**
 * Artist generation. Popularity follows a Zipf-like curve over a shuffled rank,
 * so the top artist has about 24 billion streams (above 2^31, below 2^53) and
 * the long tail a few hundred thousand.
 */
import type { ArtistCore } from './model.js';
import { PLATFORM_WEIGHTS } from './model.js';
import { artistName, pickCountry, slugify } from './names.js';
import { gaussish, intBetween, pickWeighted, type Rng, rngFor, Salt } from './prng.js';
import type { Roughness } from './roughness.js';

const AFROBEATS_SHARE = 0.6;
const TOP_TOTAL_STREAMS = 24_500_000_000;
const ZIPF_OFFSET = 4;
const ZIPF_EXPONENT = 1.25;
const TOTAL_JITTER = 0.03;
const MIN_SONGS = 8;
const MAX_SONGS = 113; // mean about 60 songs per artist, as upstream has
const DAYS_PER_YEAR = 365;
/** Digits of daily streams that make a full audience-size score (see momentumScore). */
export const ARTIST_SCORE_DIGITS = 8;

export function generateArtists(
  seed: number,
  count: number,
  dataDay: number,
  rough: Roughness,
): ArtistCore[] {
  const rng = rngFor(seed, Salt.artists);
  const ranks = shuffledRanks(rng, count);
  const usedSlugs = new Map<string, number>();
  const artists: ArtistCore[] = [];
  for (let index = 0; index < count; index += 1) {
    const isAfrobeats = rng() < AFROBEATS_SHARE;
    const country = pickCountry(rng, isAfrobeats);
    const name = artistName(rng, country);
    const slug = uniqueSlug(usedSlugs, slugify(name));
    const rank = ranks[index] ?? index;
    const totalStreams = Math.floor(
      (TOP_TOTAL_STREAMS / (1 + rank / ZIPF_OFFSET) ** ZIPF_EXPONENT) *
        (1 + TOTAL_JITTER * (rng() * 2 - 1)),
    );
    const momentum = clamp(Math.exp(0.3 * gaussish(rng)), 0.5, 2.2);
    const dailyStreams = Math.floor(totalStreams * (0.00025 + rng() * 0.00035) * momentum);
    const monthlyListeners = Math.floor(totalStreams / (180 + rng() * 240));
    artists.push({
      index,
      id: `art_${String(index + 1).padStart(5, '0')}`,
      slug,
      name,
      nameLower: name.toLowerCase(),
      imageUrl: `https://img.example/artists/${slug}.jpg`,
      country,
      isAfrobeats,
      totalStreams,
      dailyStreams,
      monthlyListeners,
      followers: Math.floor(monthlyListeners * (0.3 + rng() * 1.2)),
      momentum,
      momentumScore: momentumScore(momentum, dailyStreams, ARTIST_SCORE_DIGITS),
      debutDay: dataDay - intBetween(rng, 2 * DAYS_PER_YEAR, 15 * DAYS_PER_YEAR),
      platform: pickWeighted(rng, PLATFORM_WEIGHTS),
      songCount: intBetween(rng, MIN_SONGS, MAX_SONGS),
      popularityRank: rank,
      gaps: rough.artistGaps(index),
    });
  }
  return artists;
}

/**
 * Hotness on a 0-100 scale with one decimal: mostly the growth over the window,
 * partly the size of the audience, so a tiny act with a lucky week does not top the list.
 */
export function momentumScore(
  momentum: number,
  dailyStreams: number,
  dailyScaleDigits: number,
): number {
  const growth = clamp(
    (Math.log(momentum) - Math.log(0.5)) / (Math.log(2.5) - Math.log(0.5)),
    0,
    1,
  );
  const size = clamp(Math.log10(dailyStreams + 1) / dailyScaleDigits, 0, 1);
  return Math.round(1000 * (0.6 * growth + 0.4 * size)) / 10;
}

function uniqueSlug(used: Map<string, number>, base: string): string {
  const seen = used.get(base);
  if (seen === undefined) {
    used.set(base, 1);
    return base;
  }
  let n = seen + 1;
  while (used.has(`${base}-${n}`)) n += 1;
  used.set(base, n);
  used.set(`${base}-${n}`, 1);
  return `${base}-${n}`;
}

function shuffledRanks(rng: Rng, count: number): Int32Array {
  const ranks = new Int32Array(count);
  for (let i = 0; i < count; i += 1) ranks[i] = i;
  for (let i = count - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = ranks[i] ?? 0;
    ranks[i] = ranks[j] ?? 0;
    ranks[j] = tmp;
  }
  return ranks;
}

export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
