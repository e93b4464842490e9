/** Where the gateway runs when nothing else is said: `npm start` at the repository root. */
export const DEFAULT_GRAPHQL_URL = 'http://localhost:4000/graphql';

/**
 * The gateway's endpoint: `?api=<url>` in the page address wins (tests and demos point a built
 * app at any gateway without rebuilding), then `VITE_GRAPHQL_URL` at build time, then the default.
 */
export function graphqlUrl(search: string = window.location.search): string {
  const fromQuery = new URLSearchParams(search).get('api');
  return fromQuery || import.meta.env.VITE_GRAPHQL_URL || DEFAULT_GRAPHQL_URL;
}

/**
 * The client's own API key, for a gateway in pass-through mode (each client brings its key):
 * `?key=<key>` in the page address, then `VITE_API_KEY` at build time. Absent: the gateway
 * uses its own key (server-key mode, `npm start`'s default) and the app sends none.
 */
export function apiKey(search: string = window.location.search): string | undefined {
  return new URLSearchParams(search).get('key') || import.meta.env.VITE_API_KEY || undefined;
}

/** The headers every request carries: the key, when there is one. */
export function authHeaders(key: string | undefined = apiKey()): Record<string, string> {
  return key === undefined ? {} : { Authorization: `Bearer ${key}` };
}
