/**
 * What the response cache keeps of a complete answer: the `data` as JSON
 * text and the headers Yoga chose for it, under a key made of everything
 * that could change the answer (method, the request's URL or body, the
 * Accept header, the data generation). Extensions are not kept: the cost
 * report is written afresh on every hit.
 *
 * Entries live in the gateway's two-level cache (lru-cache, plus Redis when
 * REDIS_URL is set), beside the upstream answers, and are fresh exactly as
 * long as the least fresh upstream answer they were built from.
 */
import { createHash } from 'node:crypto';
import type { CacheEntry } from '../../cache/cache.js';

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
}

/** Upstream keys are paths (`/api/...`): this prefix can never collide with one. */
const PREFIX = 'response ';

export function responseKey(parts: {
  readonly method: string;
  readonly source: Buffer | string;
  readonly accept: string;
  readonly generation: string;
}): string {
  const hash = createHash('sha256')
    .update(parts.method)
    .update('\n')
    .update(parts.accept)
    .update('\n')
    .update(parts.generation)
    .update('\n')
    .update(parts.source)
    .digest('base64url');
  return PREFIX + hash;
}

export function entryOf(
  response: StoredResponse,
  freshUntil: number,
  now = Date.now(),
): CacheEntry {
  return {
    outcome: 'value',
    value: response,
    bytes: response.data.length,
    storedAt: now,
    freshUntil,
    // A stored answer never stands in for a failing upstream: the upstream answers it came from do.
    staleUntil: freshUntil,
  };
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
