/**
 * How resolvers read typed upstream records without hiding what went wrong:
 * a field the upstream sent unreadable (or a documented field it left out)
 * answers UPSTREAM_INVALID_RESPONSE at that field alone, and the records a
 * list had to leave out are reported in `extensions.warnings` with the
 * list's path and the record's index, so the list's other records survive.
 */
import { type GraphQLResolveInfo, responsePathAsArray } from 'graphql';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import type { DroppedRecord, Page, RecordList, UpstreamRecord } from '../upstream/records.js';
import type { PagedList } from './connections.js';
import type { GatewayContext } from './context.js';

function unreadableField(key: string, reason: string | undefined): UpstreamError {
  return new UpstreamError(
    'UPSTREAM_INVALID_RESPONSE',
    `The upstream API sent no readable "${key}" for this record${reason === undefined ? '' : `: ${reason}`}`,
  );
}

/** The field's value, or an error when the upstream sent it unreadable. Null when it was absent. */
export function upstreamField<R extends UpstreamRecord, K extends keyof R & string>(
  record: R,
  key: K,
): R[K] {
  const reason = record.unreadable?.[key];
  if (reason !== undefined) throw unreadableField(key, reason);
  return record[key];
}

/** A field the contract promises: absent or unreadable, it is an error, never an invented value. */
export function requiredField<R extends UpstreamRecord, K extends keyof R & string>(
  record: R,
  key: K,
): NonNullable<R[K]> {
  const value = upstreamField(record, key);
  if (value === null || value === undefined) throw unreadableField(key, `"${key}" is missing`);
  return value as NonNullable<R[K]>;
}

/** What a `fromRecord` or `fromRecordRequired` resolver reads: its key, and whether null is an error. */
export interface RecordRead {
  readonly key: string;
  readonly required: boolean;
}

const recordReads = new WeakMap<object, RecordRead>();

/** The record read `resolve` is, when `fromRecord` or `fromRecordRequired` made it. */
export function recordReadOf(resolve: unknown): RecordRead | undefined {
  return typeof resolve === 'function' ? recordReads.get(resolve) : undefined;
}

/** Resolver shorthand for `upstreamField`. */
export function fromRecord<R extends UpstreamRecord, K extends keyof R & string>(
  key: K,
): (record: R) => R[K] {
  const read = (record: R): R[K] => upstreamField(record, key);
  recordReads.set(read, { key, required: false });
  return read;
}

/** Resolver shorthand for `requiredField`. */
export function fromRecordRequired<R extends UpstreamRecord, K extends keyof R & string>(
  key: K,
): (record: R) => NonNullable<R[K]> {
  const read = (record: R): NonNullable<R[K]> => requiredField(record, key);
  recordReads.set(read, { key, required: true });
  return read;
}

/** The record reads of one type's fields that are read as plain properties. */
export interface PlainReads {
  readonly reads: readonly RecordRead[];
  /** The keys of the required ones: a record missing none of them and with nothing unreadable is handed on as it is. */
  readonly required: readonly string[];
}

export function plainReads(reads: readonly RecordRead[]): PlainReads {
  return { reads, required: reads.filter((read) => read.required).map((read) => read.key) };
}

/**
 * `record` as the parent of fields read as plain properties: each such value the upstream sent
 * unreadable, or a required one that is missing, replaced by the error its record read would
 * throw. graphql-js and graphql-jit both answer a field whose value is an Error with that error
 * at the field, so the answer is the one the resolvers gave. The record itself when it needs
 * nothing replaced, as nearly every record does.
 */
export function asPlainParent<R extends UpstreamRecord>(
  record: R,
  { reads, required }: PlainReads,
): R {
  const values = record as unknown as Record<string, unknown>;
  if (record.unreadable === undefined && !missingAny(values, required)) return record;
  const view = { ...values };
  for (const { key, required } of reads) {
    const reason = record.unreadable?.[key];
    if (reason !== undefined) view[key] = unreadableField(key, reason);
    else if (required && values[key] == null)
      view[key] = unreadableField(key, `"${key}" is missing`);
  }
  return view as unknown as R;
}

function missingAny(values: Record<string, unknown>, keys: readonly string[]): boolean {
  for (const key of keys) if (values[key] === null || values[key] === undefined) return true;
  return false;
}

/** Reports records left out of the list at `info`'s path (index = position in the upstream's list). */
export function reportDropped(
  dropped: readonly DroppedRecord[],
  context: GatewayContext,
  info: GraphQLResolveInfo,
): void {
  if (dropped.length === 0) return;
  const path = responsePathAsArray(info.path);
  for (const record of dropped) {
    context.report.warnings.push({
      code: 'UPSTREAM_INVALID_RESPONSE',
      message: `The upstream sent an unreadable record at index ${record.index}, left out of this list: ${record.reason}`,
      path,
      index: record.index,
    });
  }
}

/** The readable items of a list (null when the upstream sent none), reporting those left out. */
export function listItems<T>(
  list: RecordList<T> | null,
  context: GatewayContext,
  info: GraphQLResolveInfo,
): readonly T[] | null {
  if (list === null) return null;
  reportDropped(list.dropped, context, info);
  return list.items;
}

/** The pages of one upstream list (`pageRequest(n)` for page n), read through the request's loader. */
export function upstreamList<T>(
  context: GatewayContext,
  pageRequest: (page: number) => UpstreamRequest<Page<T>>,
): PagedList<T> {
  return {
    page: (page) => context.loader.load(pageRequest(page)),
    knownTotal: () => context.loader.knownTotal(pageRequest(1)),
  };
}
