/** Readers of albums: the summary of list items, and the full record with its tracks in order. */

import { byNumber, lower, withUnreadable } from './readers-common.js';
import { readSongSummary } from './readers-songs.js';
import { Fields, type Reader } from './reading.js';
import type { AlbumRecord, AlbumSummary, AlbumType, RecordList, TrackRecord } from './records.js';

const ALBUM_TYPES: readonly AlbumType[] = ['album', 'single', 'ep'];

function albumSummaryFields(f: Fields): AlbumSummary {
  return {
    id: f.string('id'),
    slug: f.identity('slug'),
    title: f.identity('title'),
    artistSlug: f.string('artistSlug', 'required'),
    artistName: f.string('artistName'),
    albumType: f.oneOf('albumType', ALBUM_TYPES, lower),
    releaseDate: f.date('releaseDate'),
    isAfrobeats: f.boolean('isAfrobeats'),
    imageUrl: f.url('imageUrl'),
    trackCount: f.integer('trackCount'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
  };
}

export const readAlbumSummary: Reader<AlbumSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'an album', at, notes);
  return withUnreadable(albumSummaryFields(f), f);
};

const readTrack: Reader<TrackRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a track', at, notes);
  return withUnreadable(
    { trackNumber: f.integer('trackNumber', 'required'), song: readSongSummary(value, notes, at) },
    f,
  );
};

function sortedList<T>(
  list: RecordList<T> | null,
  compare: (a: T, b: T) => number,
): RecordList<T> | null {
  return list === null ? null : { items: [...list.items].sort(compare), dropped: list.dropped };
}

export const readAlbum: Reader<AlbumRecord> = (value, notes) => {
  const f = new Fields(value, 'an album', '', notes);
  return withUnreadable(
    Object.assign(albumSummaryFields(f), {
      tracks: sortedList(
        f.list('tracks', readTrack),
        byNumber((track) => track.trackNumber),
      ),
    }),
    f,
  );
};
