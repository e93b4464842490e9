/**
 * A request target's path: what comes before its query. The listener routes
 * on it, and upstream keys (`/api/v1/...?limit=...`) are logged and grouped
 * by it; one function, so that every place cuts a URL the same way.
 */
export function urlPath(url: string): string {
  const queryAt = url.indexOf('?');
  return queryAt < 0 ? url : url.slice(0, queryAt);
}

/**
 * The path of a URL, absolute (`http://host:port/graphql?…`: what follows its authority) or a
 * request target (`/graphql?…`), before its query.
 */
export function requestPath(url: string): string {
  if (url.startsWith('/')) return urlPath(url);
  const authority = url.indexOf('//');
  const pathAt = authority < 0 ? 0 : url.indexOf('/', authority + 2);
  return pathAt < 0 ? '/' : urlPath(url.slice(pathAt));
}
