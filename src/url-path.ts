/**
 * A request target's path: what comes before its query. The listener routes
 * on it, and upstream keys (`/api/v1/...?limit=...`) are logged and grouped
 * by it; one function, so that every place cuts a URL the same way.
 */
export function urlPath(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}
