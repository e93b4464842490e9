/**
 * What the response cache keeps of a complete answer: the `data` as JSON
 * text and the headers Yoga chose for it, under a key made of everything
 * that could change the answer (method, the request's URL or body, the
 * Accept header, the data generation). Extensions are not kept: the cost
 * report is written afresh on every hit.
 *
 * Entries are fresh exactly as long as the least fresh upstream answer they
 * were built from. They live in an lru-cache of their own, never in the
 * upstream answers' one: an answer costs no upstream call to build again,
 * and one that cost nothing (an introspection, some 80 KB) must not push out what
 * was paid for with a share of the day's 1,000 calls. With Redis, only
 * answers built from upstream reads are shared (see `isShared`).
 */
import type { CacheEntry } from '../../cache/cache.js';
import { sha256 } from '../../digest.js';
import { compressedPart } from './gzip-answer.js';

export interface StoredResponse {
  /** The operation's name, for the request log. */
  readonly operationName: string | null;
  /** `JSON.stringify(result.data)`. */
  readonly data: string;
  /** Keys of the upstream records the answer was built from: a hit counts them as asked for again. */
  readonly reads?: readonly string[];
  readonly contentType: string;
  /** Set for GET answers by the HTTP caching plugin. */
  readonly etag: string | null;
  readonly vary: string | null;
  /** `public` or `private`, for GET answers; the max-age is computed when served. */
  readonly cacheScope: string | null;
  /** The operation's estimated worst-case upstream calls, reported again by each hit. */
  readonly estimated?: number;
}

/** A cache entry that holds a stored answer. */
export type StoredEntry = CacheEntry & { readonly value: StoredResponse };

/** The entry when it is a stored answer still fresh; undefined otherwise. */
export function servable(entry: CacheEntry | undefined): StoredEntry | undefined {
  return entry !== undefined && entry.freshUntil > Date.now() && isStoredResponse(entry.value)
    ? (entry as StoredEntry)
    : undefined;
}

/** The response cache's own lru-cache bound (RESPONSE_CACHE_MAX_BYTES). */
export const DEFAULT_RESPONSE_CACHE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Longest life of a shared answer in Redis, whatever its freshness: Redis
 * memory is also where the paid-for upstream answers live (allkeys-lru), and
 * an answer of a past data generation is never asked for again (the
 * generation is part of its key) yet would stay until its freshness ends, up
 * to CACHE_TTL_SECONDS. A replica that misses it after this rebuilds it from
 * the upstream answers, at no upstream call.
 */
export const SHARED_RESPONSE_RETENTION_MS = 60 * 60 * 1000;

/**
 * Whether an entry goes to Redis: only answers built from at least one
 * upstream read. The others (introspection, `__typename`) are cheap to build
 * on any replica, and could be as large as a whole schema.
 */
export function isShared(entry: CacheEntry): boolean {
  return isStoredResponse(entry.value) && (entry.value.reads?.length ?? 0) > 0;
}

/** Upstream keys are paths (`/api/...`): this prefix can never collide with one. */
const PREFIX = 'response ';

export function responseKey(parts: {
  readonly method: string;
  readonly source: Buffer | string;
  readonly accept: string;
  readonly generation: string;
}): string {
  const head = `${parts.method}\n${parts.accept}\n${parts.generation}\n`;
  const hashed =
    typeof parts.source === 'string'
      ? head + parts.source
      : Buffer.concat([Buffer.from(head), parts.source]);
  return PREFIX + sha256(hashed, 'base64url');
}

/** What every hit's body begins with, before the stored data. */
const DATA_PREFIX = Buffer.from('{"data":');

/** The part of a hit's body that is the same for every hit: `{"data":` and the stored data. */
export function storedPart(stored: StoredResponse): readonly Buffer[] {
  return [DATA_PREFIX, dataBytes(stored)];
}

/** Whether hits of `stored` go out in gzip to the clients that accept it (from `compressFrom` bytes). */
export function gzippedFrom(stored: StoredResponse, compressFrom: number | undefined): boolean {
  return (
    compressFrom !== undefined && DATA_PREFIX.length + dataBytes(stored).length >= compressFrom
  );
}

/**
 * What a stored answer holds in this process, all of it counted against
 * RESPONSE_CACHE_MAX_BYTES: its data as text (two bytes a character unless
 * it is ASCII, where V8 may keep it in one), as bytes, and its gzip part once
 * a hit has made it. The gzip part is made by the first hit that goes out in
 * gzip, not when the answer is stored: most answers of pages that vary are
 * never asked again, and compressing each would cost their miss more than
 * anything else it writes. That hit weighs the entry again (`weighed`).
 */
function heldBytes(stored: StoredResponse): number {
  const bytes = dataBytes(stored);
  const text = bytes.length === stored.data.length ? stored.data.length : 2 * stored.data.length;
  return text + bytes.length + (compressedPart(stored)?.deflated.length ?? 0);
}

/** A cache entry for `response`, weighed with what it holds. */
export function entryOf(
  response: StoredResponse,
  freshUntil: number,
  now = Date.now(),
): CacheEntry {
  return {
    outcome: 'value',
    value: response,
    bytes: heldBytes(response),
    storedAt: now,
    freshUntil,
    // A stored answer never stands in for a failing upstream: the upstream answers it came from do.
    staleUntil: freshUntil,
  };
}

/** `entry` (a stored answer's) weighed again with what it holds now. */
export function weighed(entry: StoredEntry): CacheEntry {
  return Object.assign({}, entry, { bytes: heldBytes(entry.value) });
}

/** Each stored answer's data as bytes, encoded once while the entry lives in this process (L1 keeps the same object). */
const encoded = new WeakMap<StoredResponse, Buffer>();

/** The bytes of `stored.data`: those its miss wrote (keepDataBytes), or encoded on the first hit. */
export function dataBytes(stored: StoredResponse): Buffer {
  let bytes = encoded.get(stored);
  if (bytes === undefined) {
    bytes = Buffer.from(stored.data);
    encoded.set(stored, bytes);
  }
  return bytes;
}

/** Remembers the bytes a miss already wrote for `stored.data`: its first hit writes them as they are. */
export function keepDataBytes(stored: StoredResponse, bytes: Buffer): void {
  encoded.set(stored, bytes);
}

export function isStoredResponse(value: unknown): value is StoredResponse {
  const v = value as Partial<StoredResponse> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof v.data === 'string' &&
    typeof v.contentType === 'string'
  );
}
