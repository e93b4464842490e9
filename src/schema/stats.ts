/** Small value types shared by artists and songs: snapshots, awards, milestone facts. */
import { AwardRef, MilestoneFactRef, StreamSnapshotRef } from './object-refs.js';

StreamSnapshotRef.implement({
  description: 'Counts of one day, as the upstream saw them at its daily refresh.',
  fields: (t) => ({
    date: t.expose('date', { type: 'Date', description: 'The day (UTC).' }),
    totalStreams: t.expose('totalStreams', { type: 'SafeInt', nullable: true, description: 'All-time streams at the end of the day.' }),
    dailyStreams: t.expose('dailyStreams', { type: 'SafeInt', nullable: true, description: 'Streams during the day.' }),
    monthlyListeners: t.expose('monthlyListeners', {
      type: 'SafeInt',
      nullable: true,
      description: 'Monthly listeners on the day (artists only; null for songs).',
    }),
  }),
});

AwardRef.implement({
  description: 'An award or nomination of an artist.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Name of the award, e.g. "Grammy Award".' }),
    category: t.exposeString('category', { nullable: true, description: 'Category, e.g. "Best Global Music Album".' }),
    year: t.exposeInt('year', { nullable: true, description: 'Year of the ceremony.' }),
    won: t.exposeBoolean('won', { description: 'True when won, false when only nominated.' }),
  }),
});

MilestoneFactRef.implement({
  description: 'Whether an artist or song has crossed a given count, and when.',
  fields: (t) => ({
    metric: t.exposeString('metric', { description: 'What is counted, e.g. `spotify_streams` or `monthly_listeners`.' }),
    threshold: t.expose('threshold', { type: 'SafeInt', description: 'The count asked about.' }),
    reached: t.exposeBoolean('reached', { description: 'Whether the count has been reached.' }),
    crossedAt: t.expose('crossedAt', { type: 'Date', nullable: true, description: 'Day it was crossed; null when not reached yet.' }),
    currentValue: t.expose('currentValue', { type: 'SafeInt', nullable: true, description: 'The count now.' }),
    text: t.exposeString('text', { nullable: true, description: 'A sentence stating the fact, ready to display.' }),
  }),
});
