/** Readers of artists: the summary of list items, and the profile with its charts, awards and top songs. */

import { lower, withUnreadable } from './readers-common.js';
import { readSongsOf } from './readers-songs.js';
import { Fields, type Reader } from './reading.js';
import type { ArtistChartRecord, ArtistProfile, ArtistSummary, AwardRecord } from './records.js';

function artistSummaryFields(f: Fields): ArtistSummary {
  return {
    id: f.string('id'),
    slug: f.identity('slug'),
    name: f.identity('name'),
    imageUrl: f.url('imageUrl'),
    country: f.string('country'),
    isAfrobeats: f.boolean('isAfrobeats'),
    totalStreams: f.integer('totalStreams'),
    dailyStreams: f.integer('dailyStreams'),
    monthlyListeners: f.integer('monthlyListeners'),
  };
}

export const readArtistSummary: Reader<ArtistSummary> = (value, notes, at = '') => {
  const f = new Fields(value, 'an artist', at, notes);
  return withUnreadable(artistSummaryFields(f), f);
};

const readArtistChart: Reader<ArtistChartRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart position', at, notes);
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      chartWeek: f.date('chartWeek'),
      position: f.integer('position', 'required'),
      peakPosition: f.integer('peakPosition'),
      weeksOnChart: f.integer('weeksOnChart'),
    },
    f,
  );
};

const AWARD_RESULTS = ['won', 'nominated'] as const;

const readAward: Reader<AwardRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'an award', at, notes);
  const result = f.oneOf('result', AWARD_RESULTS, lower);
  return withUnreadable(
    {
      name: f.identity('name'),
      category: f.string('category'),
      year: f.integer('year'),
      won: result === null ? null : result === 'won',
    },
    f,
  );
};

export const readArtistProfile: Reader<ArtistProfile> = (value, notes) => {
  const f = new Fields(value, 'an artist', '', notes);
  const summary = artistSummaryFields(f);
  return withUnreadable(
    Object.assign(summary, {
      followers: f.integer('followers'),
      charts: f.list('charts', readArtistChart),
      awards: f.list('awards', readAward),
      topSongs: f.list('topSongs', readSongsOf(summary.slug)),
    }),
    f,
  );
};
