/** Readers of songs: the summary of list items (under an artist or not) and the full record. */

import { withUnreadable } from './readers-common.js';
import { Fields, type Reader } from './reading.js';
import type { ArtistLink, SongRecord, SongSummary } from './records.js';

function songSummaryFields(f: Fields, artistSlug: string | null = null): SongSummary {
  const slug = f.identity('slug');
  const title = f.identity('title');
  // Songs listed under an artist belong to it even when the item does not say so.
  const sentArtist = f.string('artistSlug', artistSlug === null ? 'required' : 'optional');
  return {
    id: f.string('id'),
    slug,
    title,
    artistSlug: sentArtist ?? artistSlug,
    artistName: f.string('artistName'),
    albumSlug: f.string('albumSlug'),
    releaseDate: f.date('releaseDate'),
    isAfrobeats: f.boolean('isAfrobeats'),
    imageUrl: f.url('imageUrl'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
  };
}

export const readSongSummary: Reader<SongSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'a song', at, notes);
  return withUnreadable(songSummaryFields(f), f);
};

/** Songs of one artist: the artist is known from the request when an item leaves it out. */
export function readSongsOf(artistSlug: string): Reader<SongSummary> {
  return (value, notes, at = '') => {
    const f = new Fields(value, 'a song', at, notes);
    return withUnreadable(songSummaryFields(f, artistSlug), f);
  };
}

const readArtistLink: Reader<ArtistLink> = (value, notes, at = '') => {
  const f = new Fields(value, 'a featured artist', at, notes);
  return { slug: f.identity('slug'), name: f.string('name') };
};

export const readSong: Reader<SongRecord> = (value, notes) => {
  const f = new Fields(value, 'a song', '', notes);
  return withUnreadable(
    Object.assign(songSummaryFields(f), {
      durationMs: f.integer('durationMs'),
      featuredArtists: f.list('featuredArtists', readArtistLink),
    }),
    f,
  );
};
