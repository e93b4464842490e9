/**
 * `asPlainParent`: what a record read as plain properties hands on. A field read without a
 * resolver must still answer as its record read (`fromRecord`, `fromRecordRequired`) would:
 * an unreadable value, or a missing required one, is that read's error at the field.
 */
import { describe, expect, it } from 'vitest';
import {
  asPlainParent,
  fromRecord,
  fromRecordRequired,
  plainReads,
} from '../../src/schema/upstream-fields.js';
import { UpstreamError } from '../../src/upstream/errors.js';

interface Entry {
  readonly unreadable?: Readonly<Record<string, string>>;
  readonly position: number | null;
  readonly delta: number | null;
  readonly note: string | null;
}

const READS = plainReads([
  { key: 'position', required: true },
  { key: 'delta', required: false },
]);

/** What `read` throws for `record`. */
function thrown(read: (record: Entry) => unknown, record: Entry): unknown {
  try {
    read(record);
  } catch (error) {
    return error;
  }
  throw new Error('the read did not throw');
}

describe('asPlainParent', () => {
  it('hands on a readable record itself, a missing optional value as null', () => {
    const record: Entry = { position: 3, delta: null, note: null };
    expect(asPlainParent(record, READS)).toBe(record);
  });

  it('puts the record read’s own error where a value was unreadable or required and missing', () => {
    const record: Entry = {
      unreadable: { delta: '"delta" is not an integer' },
      position: null,
      delta: null,
      note: 'kept',
    };
    const view = asPlainParent(record, READS) as unknown as Record<string, unknown>;
    for (const [key, read] of [
      ['delta', fromRecord<Entry, 'delta'>('delta')],
      ['position', fromRecordRequired<Entry, 'position'>('position')],
    ] as const) {
      const error = view[key];
      expect(error).toBeInstanceOf(UpstreamError);
      expect(error).toMatchObject({ code: 'UPSTREAM_INVALID_RESPONSE' });
      expect((error as Error).message).toBe((thrown(read, record) as Error).message);
    }
    expect(view.note).toBe('kept');
    expect(view.unreadable).toBe(record.unreadable);
    expect(record.delta).toBeNull();
  });
});
