/** What one GraphQL request cost upstream: the figures behind `extensions.cost`. */
export interface StaleRead {
  readonly resource: string;
  readonly path: string;
  readonly ageSeconds: number;
}

/** A record the upstream sent unreadable, left out of a list: `path` is the list's, `index` its place upstream. */
export interface ListWarning {
  readonly code: 'UPSTREAM_RECORD_LEFT_OUT';
  readonly message: string;
  readonly path: readonly (string | number)[];
  readonly index: number;
}

export class RequestStats {
  /** Calls this request sent to the upstream, retries included. */
  upstreamCalls = 0;
  /** Reads answered from the cross-request cache. */
  cacheHits = 0;
  /** Reads answered by another read of the same request, or by another request's call in flight. */
  deduplicated = 0;
  /** Reads answered from an expired cache entry because the upstream failed. */
  readonly stale: StaleRead[] = [];
  /** Records left out of lists because the upstream sent them unreadable (`extensions.warnings`). */
  readonly warnings: ListWarning[] = [];
  /** The upstream rejected the client's own key: the whole request must fail with 401. */
  unauthenticated = false;
}
