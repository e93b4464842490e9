/**
 * Readers of ranked lists: leaderboards and trending lists (a summary with
 * its rank and momentum), and the artists and songs past a stream tier (a
 * summary with the day it crossed).
 */

import { readArtistSummary } from './readers-artists.js';
import { listOf, withUnreadable } from './readers-common.js';
import { readSongSummary } from './readers-songs.js';
import { Fields, type Reader, ShapeError } from './reading.js';
import type { RankedRecord, RecordList, TierArtistRecord, TierSongRecord } from './records.js';

/** A leaderboard or trending list: each item is a summary plus `rank` and maybe `momentumScore`. */
function rankedListOf<T>(read: Reader<T>): Reader<RecordList<RankedRecord<T>>> {
  return listOf((value, notes, at = '', index = 0) => {
    const f = new Fields(value, 'a ranked item', at, notes);
    let rank = f.integer('rank');
    if (rank === null && f.unreadable?.rank === undefined) {
      // The list is documented as ordered by rank: its position says what the missing rank is.
      f.note('rank', undefined, 'rank missing: taken from the position in the ordered list');
      rank = index + 1;
    }
    if (rank === null) throw new ShapeError('expected "rank" to be an integer');
    return withUnreadable(
      { rank, momentumScore: f.float('momentumScore'), item: read(value, notes, at) },
      f,
    );
  });
}

export const readRankedArtists = rankedListOf(readArtistSummary);
export const readRankedSongs = rankedListOf(readSongSummary);

export const readTierArtist: Reader<TierArtistRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a tier artist', at, notes);
  return { crossedAt: f.date('crossedAt'), artist: readArtistSummary(value, notes, at) };
};

export const readTierSong: Reader<TierSongRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a tier song', at, notes);
  return { crossedAt: f.date('crossedAt'), song: readSongSummary(value, notes, at) };
};
