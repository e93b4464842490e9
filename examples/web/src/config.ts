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
