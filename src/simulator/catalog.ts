/**
 * The generated catalogue: every artist in memory, every song and album only as
 * rows of compact typed arrays (global indexes), and the per-artist details
 * (song numbers and text) regenerated on demand behind an LRU. This keeps the
 * full scale (20,000 artists, about 1.2 million songs) within a small memory budget.
 */
import { ARTIST_SCORE_DIGITS, generateArtists, momentumScore } from './artists.js';
import { buildSeries, listenerSeries, type Series } from './history.js';
import { Lru } from './lru.js';
import type { ArtistCore, ArtistText, SongNumbers } from './model.js';
import { ALBUM_TYPES, HISTORY_DAYS } from './model.js';
import { hash32, Salt } from './prng.js';
import { Roughness } from './roughness.js';
import { artistText, songNoiseKey, songNumbers } from './songs.js';

const DETAIL_CACHE_ARTISTS = 1000;
const SONG_SCORE_DIGITS = 7;

export interface SongRef {
  readonly artist: number;
  readonly local: number;
}
/** A song found by title and artist name; `exact` when both match whole (case aside). */
export interface SongMatch {
  readonly g: number;
  readonly exact: boolean;
}

interface ArtistDetail {
  readonly numbers: SongNumbers;
  text: ArtistText | null;
}

export class Catalog {
  readonly artists: readonly ArtistCore[];
  readonly artistBySlug = new Map<string, number>();
  /** Global song g of artist a is songStart[a] + local index. */
  readonly songStart: Uint32Array;
  readonly songArtist: Uint32Array;
  readonly songLocal: Uint16Array;
  readonly songTotal: Float64Array;
  readonly songDaily: Float64Array;
  readonly songScore: Float32Array;
  readonly albumStart: Uint32Array;
  readonly albumArtist: Uint32Array;
  readonly albumLocal: Uint16Array;
  readonly albumType: Uint8Array;
  readonly albumRelease: Int32Array;
  readonly albumTotal: Float64Array;
  readonly albumDaily: Float64Array;
  readonly artistsByStreams: Uint32Array;
  readonly artistsByListeners: Uint32Array;
  readonly artistsByName: Uint32Array;
  readonly artistsByMomentum: Uint32Array;
  readonly rough: Roughness;
  /** The day of the latest snapshot: the generation day at first, one more at each daily refresh (advanceDay). */
  dataDay: number;
  /** Per-artist song numbers are always regenerated as on the first day, so song indexes never move. */
  private readonly generatedArtists: readonly ArtistCore[];
  private readonly details = new Lru<number, ArtistDetail>(DETAIL_CACHE_ARTISTS);

  constructor(
    readonly seed: number,
    artistCount: number,
    readonly firstDay: number,
    roughness = false,
  ) {
    const dataDay = firstDay;
    this.dataDay = dataDay;
    this.rough = new Roughness(roughness, seed);
    this.artists = generateArtists(seed, artistCount, dataDay, this.rough);
    this.generatedArtists = [...this.artists];
    for (const artist of this.artists) this.artistBySlug.set(artist.slug, artist.index);

    const songCount = this.artists.reduce((sum, artist) => sum + artist.songCount, 0);
    this.songStart = new Uint32Array(artistCount + 1);
    this.songArtist = new Uint32Array(songCount);
    this.songLocal = new Uint16Array(songCount);
    this.songTotal = new Float64Array(songCount);
    this.songDaily = new Float64Array(songCount);
    this.songScore = new Float32Array(songCount);
    this.albumStart = new Uint32Array(artistCount + 1);
    const albums = {
      artist: [] as number[],
      local: [] as number[],
      type: [] as number[],
      release: [] as number[],
      total: [] as number[],
      daily: [] as number[],
    };

    let g = 0;
    for (const artist of this.artists) {
      this.songStart[artist.index] = g;
      this.albumStart[artist.index] = albums.artist.length;
      const numbers = songNumbers(seed, artist, dataDay);
      for (let local = 0; local < artist.songCount; local += 1, g += 1) {
        const daily = numbers.daily[local] ?? 0;
        this.songArtist[g] = artist.index;
        this.songLocal[g] = local;
        this.songTotal[g] = numbers.total[local] ?? 0;
        this.songDaily[g] = daily;
        this.songScore[g] = momentumScore(numbers.momentum[local] ?? 1, daily, SONG_SCORE_DIGITS);
      }
      numbers.albums.forEach((album, local) => {
        albums.artist.push(artist.index);
        albums.local.push(local);
        albums.type.push(ALBUM_TYPES.indexOf(album.type));
        albums.release.push(album.releaseDay);
        albums.total.push(album.total);
        albums.daily.push(album.daily);
      });
    }
    this.songStart[artistCount] = g;
    this.albumStart[artistCount] = albums.artist.length;
    this.albumArtist = Uint32Array.from(albums.artist);
    this.albumLocal = Uint16Array.from(albums.local);
    this.albumType = Uint8Array.from(albums.type);
    this.albumRelease = Int32Array.from(albums.release);
    this.albumTotal = Float64Array.from(albums.total);
    this.albumDaily = Float64Array.from(albums.daily);

    const all = (): Uint32Array => Uint32Array.from(this.artists, (artist) => artist.index);
    this.artistsByStreams = all();
    this.artistsByListeners = all();
    this.artistsByName = all().sort(
      (a, b) => compareText(this.artist(a).name, this.artist(b).name) || a - b,
    );
    this.artistsByMomentum = all();
    this.sortByNumbers();
  }

  /**
   * The upstream's daily refresh: one more day of streams for every artist,
   * song and album (artist daily streams and listeners follow their momentum),
   * and the rankings re-sorted. Song numbers keep their first-day shape.
   */
  advanceDay(): void {
    this.dataDay += 1;
    const artists = this.artists as ArtistCore[];
    for (const artist of this.artists) {
      const step = artist.momentum ** (1 / (HISTORY_DAYS - 1));
      const dailyStreams = Math.floor(artist.dailyStreams * step);
      artists[artist.index] = {
        ...artist,
        dailyStreams,
        totalStreams: artist.totalStreams + dailyStreams,
        monthlyListeners: Math.floor(artist.monthlyListeners * Math.sqrt(step)),
        momentumScore: momentumScore(artist.momentum, dailyStreams, ARTIST_SCORE_DIGITS),
      };
    }
    for (let g = 0; g < this.songTotal.length; g += 1)
      this.songTotal[g] = (this.songTotal[g] ?? 0) + (this.songDaily[g] ?? 0);
    for (let g = 0; g < this.albumTotal.length; g += 1)
      this.albumTotal[g] = (this.albumTotal[g] ?? 0) + (this.albumDaily[g] ?? 0);
    this.sortByNumbers();
  }

  private sortByNumbers(): void {
    const byStreams = (a: number, b: number): number =>
      this.artist(b).totalStreams - this.artist(a).totalStreams || a - b;
    this.artistsByStreams.sort(byStreams);
    this.artistsByListeners.sort(
      (a, b) => this.artist(b).monthlyListeners - this.artist(a).monthlyListeners || a - b,
    );
    this.artistsByMomentum.sort(
      (a, b) => this.artist(b).momentumScore - this.artist(a).momentumScore || byStreams(a, b),
    );
  }

  get songCount(): number {
    return this.songTotal.length;
  }
  get albumCount(): number {
    return this.albumTotal.length;
  }

  /** The upstream's daily refresh, in small: an artist's total grows (publishing a live milestone). */
  setTotalStreams(index: number, totalStreams: number): ArtistCore {
    const updated = { ...this.artist(index), totalStreams };
    (this.artists as ArtistCore[])[index] = updated;
    return updated;
  }

  artist(index: number): ArtistCore {
    const artist = this.artists[index];
    if (artist === undefined) throw new RangeError(`no artist ${index}`);
    return artist;
  }

  findArtist(slug: string): ArtistCore | null {
    const index = this.artistBySlug.get(slug);
    return index === undefined ? null : this.artist(index);
  }

  numbers(artistIndex: number): SongNumbers {
    return this.detail(artistIndex).numbers;
  }

  text(artistIndex: number): ArtistText {
    const detail = this.detail(artistIndex);
    if (detail.text === null) {
      detail.text = artistText(
        this.seed,
        this.generatedArtist(artistIndex),
        detail.numbers,
        this.artists.length,
        this.rough,
      );
    }
    return detail.text;
  }

  /** The search rule: the title and the artist name each contained, case aside, in the song's. */
  matchSongs(title: string, artistName: string): SongMatch[] {
    const t = title.toLowerCase();
    const a = artistName.toLowerCase();
    const found: SongMatch[] = [];
    for (const index of this.artistsByStreams) {
      const artist = this.artist(index);
      if (!artist.nameLower.includes(a)) continue;
      this.text(index).songTitles.forEach((songTitle, local) => {
        const lower = songTitle.toLowerCase();
        if (lower.includes(t))
          found.push({
            g: this.songGlobal({ artist: index, local }),
            exact: lower === t && artist.nameLower === a,
          });
      });
    }
    return found;
  }

  songGlobal(ref: SongRef): number {
    return (this.songStart[ref.artist] ?? 0) + ref.local;
  }

  songRefOf(global: number): SongRef {
    return { artist: this.songArtist[global] ?? 0, local: this.songLocal[global] ?? 0 };
  }

  /**
   * Song and album slugs are `<artistSlug>-<titleSlug>`; the artist slug may
   * itself hold dashes, so every dash is tried as the split point, longest artist first.
   */
  findSong(slug: string): SongRef | null {
    return this.resolve(slug, (artist) => this.text(artist).songBySlug.get(slug));
  }

  findAlbum(slug: string): SongRef | null {
    return this.resolve(slug, (artist) => this.text(artist).albumBySlug.get(slug));
  }

  artistSeries(artistIndex: number): Series {
    const artist = this.artist(artistIndex);
    return buildSeries(
      artist.totalStreams,
      artist.dailyStreams,
      artist.momentum,
      hash32(this.seed, Salt.artistNoise),
      artistIndex,
      this.dataDay,
      artist.debutDay,
    );
  }

  artistListeners(artistIndex: number, length: number): number[] {
    const artist = this.artist(artistIndex);
    return listenerSeries(artist.monthlyListeners, artist.momentum, length);
  }

  songSeries(ref: SongRef): Series {
    const numbers = this.numbers(ref.artist);
    const g = this.songGlobal(ref);
    return buildSeries(
      this.songTotal[g] ?? 0,
      this.songDaily[g] ?? 0,
      numbers.momentum[ref.local] ?? 1,
      songNoiseKey(this.seed, ref.artist),
      ref.local,
      this.dataDay,
      numbers.releaseDay[ref.local] ?? this.dataDay,
    );
  }

  private generatedArtist(index: number): ArtistCore {
    const artist = this.generatedArtists[index];
    if (artist === undefined) throw new RangeError(`no artist ${index}`);
    return artist;
  }

  private resolve(slug: string, lookup: (artist: number) => number | undefined): SongRef | null {
    for (let cut = slug.lastIndexOf('-'); cut > 0; cut = slug.lastIndexOf('-', cut - 1)) {
      const artist = this.artistBySlug.get(slug.slice(0, cut));
      if (artist === undefined) continue;
      const local = lookup(artist);
      if (local !== undefined) return { artist, local };
    }
    return null;
  }

  private detail(artistIndex: number): ArtistDetail {
    let detail = this.details.get(artistIndex);
    if (detail === undefined) {
      detail = {
        numbers: songNumbers(this.seed, this.generatedArtist(artistIndex), this.firstDay),
        text: null,
      };
      this.details.set(artistIndex, detail);
    }
    return detail;
  }
}

/** Plain code-unit order on lower-cased names: stable across machines, unlike localeCompare. */
function compareText(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
}
