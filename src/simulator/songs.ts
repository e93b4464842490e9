/**
 * Per-artist song and album generation, split in two passes so that the global
 * indexes can be built from numbers alone: `songNumbers` (counts, dates, album
 * grouping) runs for every artist at startup; `artistText` (titles, slugs,
 * durations, features) runs only when a request needs it.
 */
import { clamp } from './artists.js';
import { dailySum } from './history.js';
import type { AlbumNumbers, ArtistCore, ArtistText, SongNumbers } from './model.js';
import { HISTORY_DAYS, PLATFORM_WEIGHTS } from './model.js';
import { albumTitle, slugify, songTitle } from './names.js';
import { gaussish, hash32, intBetween, pickWeighted, rngFor, Salt } from './prng.js';
import type { Roughness } from './roughness.js';
import type { AlbumType } from './types.js';

/** Share of an artist's streams that comes from its listed songs. */
const SONG_SHARE = 0.85;
const SONG_ZIPF_EXPONENT = 0.9;
const DAYS_PER_YEAR = 365;
const MIN_DURATION_MS = 120_000;
const MAX_DURATION_MS = 300_000;
const FEATURE_CHANCE = 0.25;
const TITLE_ATTEMPTS = 6;

export function songNoiseKey(seed: number, artistIndex: number): number {
  return hash32(seed, Salt.songNoise, artistIndex);
}

export function songNumbers(seed: number, artist: ArtistCore, dataDay: number): SongNumbers {
  const rng = rngFor(seed, Salt.songNumbers, artist.index);
  const n = artist.songCount;
  const career = dataDay - artist.debutDay;
  const releaseDay = new Int32Array(n);
  // A power below 1 skews releases towards recent days, as catalogues grow.
  for (let i = 0; i < n; i += 1)
    releaseDay[i] = artist.debutDay + Math.floor(rng() ** 0.8 * (career + 1));
  releaseDay.sort();

  const album = new Int32Array(n).fill(-1);
  const trackNumber = new Uint16Array(n);
  const groups: { type: AlbumType; start: number; size: number }[] = [];
  for (let i = 0; i < n; ) {
    const left = n - i;
    const roll = rng();
    let type: AlbumType | null = null;
    let size = 1;
    if (roll < 0.1 && left >= 10) [type, size] = ['album', intBetween(rng, 10, Math.min(18, left))];
    else if (roll < 0.25 && left >= 4) [type, size] = ['ep', intBetween(rng, 4, Math.min(7, left))];
    else if (roll < 0.5) [type, size] = ['single', left >= 2 && rng() < 0.2 ? 2 : 1];
    if (type !== null) {
      // Every track of a release shares the release date (the group is contiguous, so order holds).
      const day = releaseDay[i + size - 1] ?? dataDay;
      for (let k = 0; k < size; k += 1) {
        releaseDay[i + k] = day;
        album[i + k] = groups.length;
        trackNumber[i + k] = k + 1;
      }
      groups.push({ type, start: i, size });
    }
    i += size;
  }

  const ranks = shuffled(rng, n);
  const totalWeight = new Float64Array(n);
  const dailyWeight = new Float64Array(n);
  const momentum = new Float32Array(n);
  const platform = new Uint8Array(n);
  let totalSum = 0;
  let dailySumWeights = 0;
  for (let i = 0; i < n; i += 1) {
    const age = dataDay - (releaseDay[i] ?? dataDay);
    const base = 1 / ((ranks[i] ?? i) + 1) ** SONG_ZIPF_EXPONENT;
    const boost = age < 60 ? 1.5 : age < DAYS_PER_YEAR ? 1.1 : 0.85;
    const m = clamp(Math.exp(0.35 * gaussish(rng)) * boost, 0.4, 2.5);
    momentum[i] = m;
    totalWeight[i] = base * Math.min(1, (age + 1) / DAYS_PER_YEAR) ** 0.7;
    dailyWeight[i] = base * m;
    totalSum += totalWeight[i] ?? 0;
    dailySumWeights += dailyWeight[i] ?? 0;
    platform[i] = pickWeighted(rng, PLATFORM_WEIGHTS);
  }

  const noiseKey = songNoiseKey(seed, artist.index);
  const total = new Float64Array(n);
  const daily = new Float64Array(n);
  for (let i = 0; i < n; i += 1) {
    const m = momentum[i] ?? 1;
    const age = dataDay - (releaseDay[i] ?? dataDay);
    const d = Math.floor(
      (artist.dailyStreams * SONG_SHARE * (dailyWeight[i] ?? 0)) / dailySumWeights,
    );
    daily[i] = d;
    if (age < HISTORY_DAYS) {
      // A recent song's total is exactly the sum of its days since release.
      total[i] = dailySum(d, m, noiseKey, i, age + 1);
    } else {
      const t = Math.floor((artist.totalStreams * SONG_SHARE * (totalWeight[i] ?? 0)) / totalSum);
      const windowBound = Math.ceil(d * HISTORY_DAYS * Math.max(1, 1 / m) * 1.1);
      total[i] = t > windowBound ? t : windowBound + Math.floor(d * (age - HISTORY_DAYS) * 0.5);
    }
  }

  const albums: AlbumNumbers[] = groups.map(({ type, start, size }) => {
    const tracks: number[] = [];
    let albumTotal = 0;
    let albumDaily = 0;
    for (let k = 0; k < size; k += 1) {
      tracks.push(start + k);
      albumTotal += total[start + k] ?? 0;
      albumDaily += daily[start + k] ?? 0;
    }
    return {
      type,
      releaseDay: releaseDay[start] ?? dataDay,
      tracks,
      total: albumTotal,
      daily: albumDaily,
    };
  });

  return { total, daily, releaseDay, momentum, album, trackNumber, platform, albums };
}

export function artistText(
  seed: number,
  artist: ArtistCore,
  numbers: SongNumbers,
  artistCount: number,
  rough: Roughness,
): ArtistText {
  const rng = rngFor(seed, Salt.songText, artist.index);
  const n = numbers.total.length;
  const songTitles: string[] = [];
  const songSlugs: string[] = [];
  const durationMs: number[] = [];
  const featured: number[][] = [];
  const songBySlug = new Map<string, number>();
  for (let i = 0; i < n; i += 1) {
    let title = songTitle(rng);
    for (
      let attempt = 0;
      attempt < TITLE_ATTEMPTS && songBySlug.has(songSlug(artist, title));
      attempt += 1
    ) {
      title = songTitle(rng);
    }
    const baseTitle = title;
    for (let part = 2; songBySlug.has(songSlug(artist, title)); part += 1)
      title = `${baseTitle} Pt. ${part}`;
    const slug = songSlug(artist, title);
    songTitles.push(title);
    songSlugs.push(slug);
    songBySlug.set(slug, i);
    durationMs.push(intBetween(rng, MIN_DURATION_MS, MAX_DURATION_MS));
    const guests: number[] = [];
    if (artistCount > 1 && rng() < FEATURE_CHANCE) {
      const wanted = rng() < 0.8 ? 1 : 2;
      for (let tries = 0; guests.length < wanted && tries < 5; tries += 1) {
        const guest = Math.floor(rng() * artistCount);
        if (guest !== artist.index && !guests.includes(guest)) guests.push(guest);
      }
    }
    featured.push(guests);
  }
  const rerelease = rough.rerelease(artist.index, n);
  if (rerelease !== null)
    reissue(songTitles, songSlugs, songBySlug, rerelease.song, rerelease.original);

  const albumTitles: string[] = [];
  const albumSlugs: string[] = [];
  const albumBySlug = new Map<string, number>();
  numbers.albums.forEach((album, k) => {
    const first = album.tracks[0] ?? 0;
    let title = album.type === 'single' ? (songTitles[first] ?? 'Single') : albumTitle(rng);
    for (
      let attempt = 0;
      attempt < TITLE_ATTEMPTS && albumBySlug.has(songSlug(artist, title));
      attempt += 1
    ) {
      title = albumTitle(rng);
    }
    const baseTitle = title;
    for (let part = 2; albumBySlug.has(songSlug(artist, title)); part += 1)
      title = `${baseTitle} Vol. ${part}`;
    const slug = songSlug(artist, title);
    albumTitles.push(title);
    albumSlugs.push(slug);
    albumBySlug.set(slug, k);
  });

  return {
    songTitles,
    songSlugs,
    durationMs,
    featured,
    songBySlug,
    albumTitles,
    albumSlugs,
    albumBySlug,
  };
}

/** Song `song` takes the title of `original` (a re-release or remix); its slug gets the first free `-<n>` suffix. */
function reissue(
  titles: string[],
  slugs: string[],
  bySlug: Map<string, number>,
  song: number,
  original: number,
): void {
  const title = titles[original] ?? '';
  const base = slugs[original] ?? '';
  let n = 2;
  while (bySlug.has(`${base}-${n}`)) n += 1;
  bySlug.delete(slugs[song] ?? '');
  titles[song] = title;
  slugs[song] = `${base}-${n}`;
  bySlug.set(`${base}-${n}`, song);
}

function songSlug(artist: ArtistCore, title: string): string {
  return `${artist.slug}-${slugify(title)}`;
}

function shuffled(rng: () => number, n: number): Int32Array {
  const values = new Int32Array(n);
  for (let i = 0; i < n; i += 1) values[i] = i;
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(rng() * (i + 1));
    const tmp = values[i] ?? 0;
    values[i] = values[j] ?? 0;
    values[j] = tmp;
  }
  return values;
}
