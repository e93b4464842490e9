/**
 * What the report says when a cached entry answers: the read was answered
 * from the cache; for a held entry that is not current, how old its data
 * is, and, when it is past its freshness, that it is stale
 * (`extensions.stale`).
 */
import type { CacheEntry } from '../cache/cache.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import type { UpstreamObserver } from '../upstream/observer.js';
import { unwrap } from './entries.js';
import type { RequestReport } from './request-report.js';

/** A current entry answers: a cache hit, reusable while the entry stays current. */
export function answerCurrent<T>(
  entry: CacheEntry,
  until: number,
  request: UpstreamRequest<T>,
  report: RequestReport,
): T {
  report.cacheHits += 1;
  report.answeredFrom(until);
  return unwrap<T>(entry, request);
}

/** A held entry one generation behind answers: its age goes into the report, and nothing reuses the answer. */
export function answerBehind<T>(
  entry: CacheEntry,
  request: UpstreamRequest<T>,
  report: RequestReport,
): T {
  report.cacheHits += 1;
  report.heldFrom(entry);
  report.answeredFrom(Date.now());
  report.previousGeneration += 1;
  return unwrap<T>(entry, request);
}

/** A held entry past its freshness answers: the reader is told it is stale, and how old. */
export function answerStale<T>(
  entry: CacheEntry,
  request: UpstreamRequest<T>,
  report: RequestReport,
  observer: UpstreamObserver,
): T {
  report.heldFrom(entry);
  report.answeredFrom(Date.now());
  report.stale.push({
    resource: request.resource,
    key: request.key,
    ageSeconds: Math.round((Date.now() - entry.storedAt) / 1000),
  });
  observer.staleServed(request.resource);
  return unwrap<T>(entry, request);
}
