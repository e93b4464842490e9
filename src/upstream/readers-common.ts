/**
 * What every tolerant reader uses (the policy is in `readers.ts`): records
 * that name their unreadable fields, list and page bodies read item by item,
 * and orders that leave unreadable values last.
 */
import { Fields, listBody, objectAt, type Reader, readItems, ShapeError } from './reading.js';
import type { Page, RecordList } from './records.js';

export const upper = (text: string) => text.trim().toUpperCase();
export const lower = (text: string) => text.trim().toLowerCase();

/** Only the fields that were unreadable, so that most records carry nothing extra. */
export function withUnreadable<T extends object>(record: T, fields: Fields): T {
  const unreadable = fields.unreadable;
  return unreadable === undefined ? record : Object.assign({}, record, { unreadable });
}

/** A list body, bare or under `data`, read item by item. */
export function listOf<T>(read: Reader<T>): Reader<RecordList<T>> {
  return (body, notes) => {
    const { items, at } = listBody(body, notes);
    return readItems(items, read, notes, at);
  };
}

/** A paginated body: `{ data, meta: { total } }` (Part 1 documents the envelope). */
export function pageOf<T>(read: Reader<T>): Reader<Page<T>> {
  return (body, notes) => {
    const envelope = objectAt(body, 'the body');
    if (!Array.isArray(envelope.data)) throw new ShapeError('expected "data" to be a list');
    const meta = new Fields(envelope.meta, '"meta"', 'meta', notes);
    const total = meta.integer('total');
    if (total === null) throw new ShapeError('expected "meta.total" to be an integer');
    return Object.assign(readItems(envelope.data, read, notes, 'data'), {
      total: Math.max(total, 0),
    });
  };
}

/** Nulls last, so that unreadable values do not reorder the readable ones. */
export const byNumber =
  <T>(key: (item: T) => number | null) =>
  (a: T, b: T) =>
    (key(a) ?? Number.POSITIVE_INFINITY) - (key(b) ?? Number.POSITIVE_INFINITY);
