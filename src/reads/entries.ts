/**
 * What an upstream answer becomes in the cache, and what a cache entry
 * answers a reader. An entry is a record or the upstream's "not found",
 * stamped with the data generation its read began in and with how long it
 * answers: fresh until its TTL, held (for when no call is made) until its
 * retention.
 */
import type { CacheEntry } from '../cache/cache.js';
import type { GenerationView } from '../freshness/generation.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import { ShapeError } from '../upstream/readers.js';
import { ReadNotes } from '../upstream/reading.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import { urlPath } from '../url-path.js';

export interface CachePolicy {
  /** Without a known data generation, how long an answer is served without asking again. */
  readonly ttlMs: number;
  readonly notFoundTtlMs: number;
  /**
   * How long a paid-for answer is kept at most (memory pressure usually
   * evicts first). Until then it answers whenever no call is made for it:
   * the upstream fails, or the plan spends the day elsewhere.
   */
  readonly retentionMs: number;
}

/**
 * What a record read from an upstream body takes in the heap, per byte of the
 * body: more than the body, for numbers and short strings in small objects.
 * An entry's `bytes` are its body's times this, so that CACHE_MAX_BYTES
 * bounds the memory the records take, not the bodies they came in
 * (docs/decisions/record-bytes-per-body-byte.md).
 */
export const RECORD_BYTES_PER_BODY_BYTE = 1.6;

/** The memory a record read from a body of `bodyBytes` takes, as the cache counts it. */
export function recordBytes(bodyBytes: number): number {
  return Math.ceil(bodyBytes * RECORD_BYTES_PER_BODY_BYTE);
}

/** The data generation an entry belongs to; none while no generation is known. */
export interface Stamp {
  readonly generation?: number;
}

export function stampOf(generation: GenerationView | undefined): Stamp {
  const current = generation?.now();
  return current === undefined ? {} : { generation: current.id };
}

export function entryFor(
  outcome: CacheEntry['outcome'],
  value: unknown,
  bytes: number,
  policy: CachePolicy,
  stamp: Stamp,
): CacheEntry {
  const now = Date.now();
  const ttlMs = outcome === 'value' ? policy.ttlMs : policy.notFoundTtlMs;
  // What was paid for is kept to answer when no call is made; a not-found answer only for its TTL.
  const keptMs = outcome === 'value' ? Math.max(ttlMs, policy.retentionMs) : ttlMs;
  return {
    outcome,
    value,
    bytes,
    storedAt: now,
    freshUntil: now + ttlMs,
    staleUntil: now + keptMs,
    ...stamp,
  };
}

/**
 * The record in a 200 body. A body the reader cannot make sense of is the
 * upstream's failure, not the question's: a stale entry may answer it.
 */
export function readBody(
  request: UpstreamRequest<unknown>,
  body: unknown,
  notices: UpstreamNotices,
): unknown {
  const notes = new ReadNotes();
  try {
    return request.read(body, notes);
  } catch (error) {
    if (!(error instanceof ShapeError)) throw error;
    throw new UpstreamError(
      'UPSTREAM_INVALID_RESPONSE',
      `The upstream API answered the ${request.resource} request with an unreadable body: ${error.message}`,
      { path: pathOf(request), cause: error },
    );
  } finally {
    notices.bodyRead(request, notes.notes);
  }
}

export function unwrap<T>(entry: CacheEntry, request: UpstreamRequest<T>): T {
  if (entry.outcome === 'not-found') {
    throw new UpstreamError('NOT_FOUND', String(entry.value), {
      status: 404,
      path: pathOf(request),
    });
  }
  return entry.value as T;
}

/** Where a list's length is kept; upstream keys are paths (`/api/...`), so this prefix never collides with one. */
export function totalKey(listKey: string): string {
  return `list-total ${listKey}`;
}

export function pathOf(request: UpstreamRequest<unknown>): string {
  return urlPath(request.key);
}
