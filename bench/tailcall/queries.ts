/**
 * The questions `npm run bench:tailcall` asks both gateways: the warm references of
 * bench/reference-queries.ts, the artist page, and the artist page over many artists. Each asks
 * ours in its own schema and Tailcall in tailcall.graphql's; `normalize` maps both answers to one
 * shape where the two schemas differ (Tailcall passes the upstream's award `result`, a
 * milestone's `songTitle` and an artist's whole song list, where ours answers `won`, `song` and a
 * connection of the first 20).
 */
import { ARTIST_PAGE_QUERY, WARM_REFERENCE_QUERIES } from '../reference-queries.js';

export interface PeerQuery {
  readonly key: string;
  readonly name: string;
  /**
   * A request body for ours or for Tailcall. `request`, when given, goes in as a variable the
   * operation does not declare (both ignore it): every body differs, so that no answer is a
   * stored one.
   */
  body(who: 'ours' | 'tailcall', slug: string, request?: number): string;
  /** Whether each request of a load round is a new body, asking for the next slug of the list. */
  readonly varying?: boolean;
  /** Measured on a fresh process too (the first request, cold). */
  readonly cold: boolean;
  normalize(who: 'ours' | 'tailcall', data: unknown): unknown;
}

const TAILCALL_ARTIST_PAGE = `query ArtistPage($slug: String!) { artist(slug: $slug) {
  name followers monthlyListeners awards { name result } chartPositions { position chart { name territory } }
  topSongs { title totalStreams } songs { title }
  history { date dailyStreams } milestones { threshold crossedAt songTitle } } }`;

interface Page {
  awards: { name: string; won?: boolean; result?: string }[];
  songs: { totalCount: number; nodes: { title: string }[] } | { title: string }[];
  milestones: {
    threshold: number;
    crossedAt: string;
    song?: { title: string } | null;
    songTitle?: string | null;
  }[];
}

/** Ours' connection of the first 20 songs, from Tailcall's whole list. */
const SONGS_PAGE = 20;

function normalizePage(who: 'ours' | 'tailcall', data: unknown): unknown {
  const artist = (data as { artist: (Page & Record<string, unknown>) | null }).artist;
  if (artist === null || who === 'ours') return data;
  const songs = artist.songs as { title: string }[];
  return {
    artist: {
      ...artist,
      awards: artist.awards.map(({ name, result }) => ({ name, won: result === 'won' })),
      songs: { totalCount: songs.length, nodes: songs.slice(0, SONGS_PAGE) },
      milestones: artist.milestones.map(({ threshold, crossedAt, songTitle }) => ({
        threshold,
        crossedAt,
        song: songTitle === null || songTitle === undefined ? null : { title: songTitle },
      })),
    },
  };
}

const same = (_who: 'ours' | 'tailcall', data: unknown) => data;
const reference = (name: string) => WARM_REFERENCE_QUERIES.find((query) => query.name === name)!;
const fixed = (key: string, name: string, cold: boolean): PeerQuery => {
  const { query, variables } = reference(name);
  return {
    key,
    name,
    cold,
    body: (_who, slug) => JSON.stringify({ query, variables: variables?.(slug) }),
    normalize: same,
  };
};

const artistPage = (who: 'ours' | 'tailcall', slug: string, request?: number) =>
  JSON.stringify({
    query: who === 'ours' ? ARTIST_PAGE_QUERY : TAILCALL_ARTIST_PAGE,
    variables: request === undefined ? { slug } : { slug, request },
  });

export const PEER_QUERIES: readonly PeerQuery[] = [
  fixed('typename', '{ __typename }', false),
  fixed('artist', 'one artist, two fields', true),
  fixed('top20', 'top 20 artists with 90-day history', true),
  fixed('chart', 'a chart of 50 entries', true),
  {
    key: 'page',
    name: 'the artist page',
    cold: true,
    body: artistPage,
    normalize: normalizePage,
  },
  {
    key: 'pages',
    name: 'the artist page, its slug cycling over many artists',
    cold: false,
    varying: true,
    body: artistPage,
    normalize: normalizePage,
  },
];

/** A load's request bodies: one body throughout, or a new one per request (given its number). */
export type Bodies = string | ((request: number) => string);

/** The body of request number `request` of a load. */
export const bodyOf = (bodies: Bodies, request: number): string =>
  typeof bodies === 'string' ? bodies : bodies(request);

/** `body` with an undeclared variable `request` set to `request`: a new body, the same operation. */
function varied(body: string, request: number): string {
  const parsed = JSON.parse(body) as { variables?: Record<string, unknown> };
  return JSON.stringify({ ...parsed, variables: { ...parsed.variables, request } });
}

/** The queries a run measures: those ONLY names (a comma list of their keys), or all of them. */
export function chosenQueries(only = process.env.ONLY): readonly PeerQuery[] {
  const keys = only?.split(',').map((key) => key.trim());
  return PEER_QUERIES.filter((query) => keys === undefined || keys.includes(query.key));
}

/**
 * The bodies `who` is asked `query` with in a load: the varying page's slug cycles over `slugs`;
 * `vary` makes any other query's body new on every request too (a miss each time).
 */
export function loadBodies(
  query: PeerQuery,
  who: 'ours' | 'tailcall',
  slugs: readonly string[],
  vary = false,
): Bodies {
  if (query.varying) return (request) => query.body(who, slugs[request % slugs.length]!, request);
  const body = query.body(who, slugs[0]!);
  return vary ? (request) => varied(body, request) : body;
}
