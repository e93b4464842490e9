/** Small value types shared by artists and songs: snapshots, awards, milestone facts. */

import { READS_NOTHING } from './field-reads.js';
import { AwardRef, MilestoneFactRef, StreamSnapshotRef } from './object-refs.js';
import { fromRecord } from './upstream-fields.js';

StreamSnapshotRef.implement({
  description: 'Counts of one day, as the upstream saw them at its daily refresh.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date', description: 'The day (UTC).' }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams at the end of the day.',
      upstream: READS_NOTHING,
      resolve: fromRecord('totalStreams'),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams during the day.',
      upstream: READS_NOTHING,
      resolve: fromRecord('dailyStreams'),
    }),
    monthlyListeners: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Monthly listeners on the day (artists only; null for songs).',
      upstream: READS_NOTHING,
      resolve: fromRecord('monthlyListeners'),
    }),
  }),
});

AwardRef.implement({
  description: 'An award or nomination of an artist.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name of the award, e.g. "Grammy Award".' }),
    category: t.string({
      nullable: true,
      description: 'Category, e.g. "Best Global Music Album".',
      upstream: READS_NOTHING,
      resolve: fromRecord('category'),
    }),
    year: t.int({
      nullable: true,
      description: 'Year of the ceremony.',
      upstream: READS_NOTHING,
      resolve: fromRecord('year'),
    }),
    won: t.boolean({
      nullable: true,
      description: 'True when won, false when only nominated; null when the upstream does not say.',
      upstream: READS_NOTHING,
      resolve: fromRecord('won'),
    }),
  }),
});

MilestoneFactRef.implement({
  description: 'Whether an artist or song has crossed a given count, and when.',
  fields: (t) => ({
    metric: t.exposeString('metric', {
      description: 'What is counted, e.g. `spotify_streams` or `monthly_listeners`.',
    }),
    threshold: t.expose('threshold', { type: 'SafeInt', description: 'The count asked about.' }),
    reached: t.boolean({
      nullable: true,
      description: 'Whether the count has been reached; null when the upstream does not say.',
      upstream: READS_NOTHING,
      resolve: fromRecord('reached'),
    }),
    crossedAt: t.field({
      type: 'Date',
      nullable: true,
      description: 'Day it was crossed; null when not reached yet.',
      upstream: READS_NOTHING,
      resolve: fromRecord('crossedAt'),
    }),
    currentValue: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'The count now.',
      upstream: READS_NOTHING,
      resolve: fromRecord('currentValue'),
    }),
    text: t.string({
      nullable: true,
      description: 'A sentence stating the fact, ready to display.',
      upstream: READS_NOTHING,
      resolve: fromRecord('text'),
    }),
  }),
});
