/** Readers of stream histories: daily snapshots of an artist or a song, one a day, oldest first. */

import { listOf, withUnreadable } from './readers-common.js';
import { Fields, type Reader, ShapeError } from './reading.js';
import type { RecordList, StreamSnapshotRecord } from './records.js';

export const readStreamSnapshot: Reader<StreamSnapshotRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a stream snapshot', at, notes);
  const date = f.date('date');
  if (date === null) throw new ShapeError('expected "date" to be a YYYY-MM-DD date that exists');
  return withUnreadable(
    {
      date,
      totalStreams: f.integer('totalStreams'),
      dailyStreams: f.integer('dailyStreams'),
      monthlyListeners: f.integer('monthlyListeners'),
    },
    f,
  );
};

/** `YYYY-MM-DD` days sort as text, without the cost of a locale-aware comparison. */
const byDate = (a: { date: string }, b: { date: string }) =>
  a.date < b.date ? -1 : a.date > b.date ? 1 : 0;

/** Histories are served oldest first whatever order the upstream used, one snapshot a day. */
export const readHistory: Reader<RecordList<StreamSnapshotRecord>> = (body, notes) => {
  const list = listOf(readStreamSnapshot)(body, notes);
  const byDay = new Map<string, StreamSnapshotRecord>();
  for (const snapshot of list.items) {
    if (byDay.has(snapshot.date))
      notes.add('', 'date', snapshot.date, 'the same day twice: the first is kept');
    else byDay.set(snapshot.date, snapshot);
  }
  return {
    items: [...byDay.values()].sort(byDate),
    dropped: list.dropped,
  };
};
