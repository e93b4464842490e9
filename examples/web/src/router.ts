/** Hash routes: `#/` is the leaderboard, `#/artist/<slug>` an artist page. No server rewrites needed. */
import { useEffect, useState } from 'react';

export type Route =
  | { readonly page: 'leaderboard' }
  | { readonly page: 'artist'; readonly slug: string };

export function parseRoute(hash: string): Route {
  const match = /^#\/artist\/([^/?#]+)\/?$/.exec(hash);
  if (match?.[1] !== undefined) return { page: 'artist', slug: decodeURIComponent(match[1]) };
  return { page: 'leaderboard' };
}

export function artistHref(slug: string): string {
  return `#/artist/${encodeURIComponent(slug)}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onChange = () => {
      setRoute(parseRoute(window.location.hash));
      window.scrollTo(0, 0);
    };
    window.addEventListener('hashchange', onChange);
    return () => window.removeEventListener('hashchange', onChange);
  }, []);
  return route;
}
