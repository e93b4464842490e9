/**
 * Routing of authenticated API requests. Matching works on decoded path
 * segments, so an encoded slash (`a%2Fb`) or `%2e%2e` stays inside one slug and
 * can never reach another endpoint. Handlers validate parameters, then call the
 * data facade; every failure is an HttpError with the upstream's message.
 */
import type { SimulatorData } from './data.js';
import { DEFAULT_PAGE } from './data.js';
import { MAX_RANKED_ITEMS } from './dataset.js';
import { badRequest, HttpError, Messages, notFound } from './errors.js';
import { ALBUM_TYPES, ARTIST_TIERS, SONG_TIERS, type Tier } from './model.js';
import {
  booleanParam,
  enumParam,
  integerParam,
  positiveIntegerSegment,
  type Query,
  requiredText,
  textParam,
} from './query.js';

const MAX_PAGE_LIMIT = 100;
const MAX_CHART_LIMIT = 200;
const ARTIST_SORTS = ['name', 'totalStreams', 'monthlyListeners'] as const;
const ALBUM_SORTS = ['totalStreams', 'releaseDate', 'dailyStreams'] as const;

export interface ApiRequest {
  readonly method: string;
  readonly rawPath: string;
  readonly segments: readonly string[];
  readonly query: Query;
}

type Handler = (data: SimulatorData, params: readonly string[], query: Query) => unknown;
/** A pattern segment starting with ':' captures one path segment. */
interface Route {
  readonly pattern: readonly string[];
  readonly handle: Handler;
}

const route = (path: string, handle: Handler): Route => ({
  pattern: path.split('/').filter(Boolean),
  handle,
});

const page = (q: Query) => ({
  page: integerParam(q, 'page', { min: 1 }) ?? DEFAULT_PAGE,
  limit: integerParam(q, 'limit', { min: 1, max: MAX_PAGE_LIMIT }),
});
const ranked = (q: Query, withCountry: boolean) => ({
  limit: integerParam(q, 'limit', { min: 1, max: MAX_RANKED_ITEMS }),
  isAfrobeats: booleanParam(q, 'isAfrobeats'),
  country: withCountry ? textParam(q, 'country') : undefined,
});

function found<T>(value: T | null, message: string): T {
  if (value === null) throw notFound(message);
  return value;
}

function tier(tiers: readonly Tier[], label: string): string {
  if (!tiers.some((t) => t.label === label)) {
    throw badRequest(
      `Unknown tier "${label}". Expected one of: ${tiers.map((t) => t.label).join(', ')}`,
    );
  }
  return label;
}

const ROUTES: readonly Route[] = [
  route('artists', (d, _, q) =>
    d.artists({
      ...page(q),
      letter: textParam(q, 'letter'),
      country: textParam(q, 'country'),
      isAfrobeats: booleanParam(q, 'isAfrobeats'),
      sortBy: enumParam(q, 'sortBy', ARTIST_SORTS),
      q: textParam(q, 'q'),
    }),
  ),
  route('artists/:slug', (d, [slug = '']) =>
    found(d.artistBySlug(slug), Messages.artistNotFound(slug)),
  ),
  route('artists/:slug/history', (d, [slug = '']) =>
    found(d.artistHistory(slug), Messages.artistNotFound(slug)),
  ),

  // Declared before 'songs/:slug' so that 'search' is never taken for a slug.
  route('songs/search', (d, _, q) =>
    d.searchSongs(requiredText(q, 'title'), requiredText(q, 'artistName')),
  ),
  route('songs/:slug', (d, [slug = '']) => found(d.songBySlug(slug), Messages.songNotFound(slug))),
  route('songs/:slug/history', (d, [slug = '']) =>
    found(d.songHistory(slug), Messages.songNotFound(slug)),
  ),
  route('songs/:artistSlug/songs', (d, [slug = ''], q) =>
    found(
      d.songsOfArtist(slug, integerParam(q, 'limit', { min: 1 })),
      Messages.artistNotFound(slug),
    ),
  ),

  route('milestones/recent', (d, _, q) =>
    d.recentMilestones({ ...page(q), isAfrobeats: booleanParam(q, 'isAfrobeats') }),
  ),
  route('milestones/artists/:tier', (d, [label = ''], q) =>
    d.milestonesByArtistTier(tier(ARTIST_TIERS, label), {
      ...page(q),
      isAfrobeats: booleanParam(q, 'isAfrobeats'),
    }),
  ),
  route('milestones/songs/:tier', (d, [label = ''], q) =>
    d.milestonesBySongTier(tier(SONG_TIERS, label), {
      ...page(q),
      isAfrobeats: booleanParam(q, 'isAfrobeats'),
    }),
  ),
  route('milestones/timeline/:artistSlug', (d, [slug = '']) =>
    found(d.milestoneTimeline(slug), Messages.artistNotFound(slug)),
  ),
  route('milestones/facts/:artistSlug/streams/:threshold', (d, [slug = '', raw = '']) => {
    const threshold = positiveIntegerSegment(raw, 'threshold');
    return found(d.artistStreamsFact(slug, threshold), Messages.artistNotFound(slug));
  }),
  route('milestones/facts/:artistSlug/listeners/:threshold', (d, [slug = '', raw = '']) => {
    const threshold = positiveIntegerSegment(raw, 'threshold');
    return found(d.artistListenersFact(slug, threshold), Messages.artistNotFound(slug));
  }),
  route(
    'milestones/facts/:artistSlug/songs/:songSlug/streams/:threshold',
    (d, [slug = '', songSlug = '', raw = '']) => {
      const threshold = positiveIntegerSegment(raw, 'threshold');
      found(d.artistBySlug(slug), Messages.artistNotFound(slug));
      return found(d.songStreamsFact(slug, songSlug, threshold), Messages.songNotFound(songSlug));
    },
  ),

  route('leaderboard/streams', (d, _, q) => d.leaderboardStreams(ranked(q, true))),
  route('leaderboard/listeners', (d, _, q) => d.leaderboardListeners(ranked(q, true))),
  route('leaderboard/songs', (d, _, q) => d.leaderboardSongs(ranked(q, false))),
  route('trending/artists', (d, _, q) => d.trendingArtists(ranked(q, true))),
  route('trending/songs', (d, _, q) => d.trendingSongs(ranked(q, false))),

  route('albums', (d, _, q) =>
    d.albums({
      ...page(q),
      isAfrobeats: booleanParam(q, 'isAfrobeats'),
      albumType: enumParam(q, 'albumType', ALBUM_TYPES),
      sortBy: enumParam(q, 'sortBy', ALBUM_SORTS),
    }),
  ),
  route('albums/:slug', (d, [slug = '']) =>
    found(d.albumBySlug(slug), Messages.albumNotFound(slug)),
  ),

  route('charts', (d) => d.charts()),
  route('charts/:chartName/:territory', (d, [name = '', territory = ''], q) =>
    found(
      d.chart(name, territory, integerParam(q, 'limit', { min: 1, max: MAX_CHART_LIMIT })),
      Messages.chartNotFound(name, territory),
    ),
  ),
];

const API_PREFIX = ['api', 'v1'];

/** The JSON body for a request, or an HttpError. */
export function dispatch(data: SimulatorData, request: ApiRequest): unknown {
  const { segments } = request;
  const underPrefix =
    request.method === 'GET' && API_PREFIX.every((part, i) => segments[i] === part);
  const rest = segments.slice(API_PREFIX.length);
  if (underPrefix) {
    for (const candidate of ROUTES) {
      const params = match(candidate.pattern, rest);
      if (params !== null) return candidate.handle(data, params, request.query);
    }
  }
  throw new HttpError(404, Messages.cannot(request.method, request.rawPath));
}

function match(pattern: readonly string[], segments: readonly string[]): string[] | null {
  if (pattern.length !== segments.length) return null;
  const params: string[] = [];
  for (let i = 0; i < pattern.length; i += 1) {
    const expected = pattern[i] ?? '';
    const actual = segments[i] ?? '';
    if (expected.startsWith(':')) params.push(actual);
    else if (expected !== actual) return null;
  }
  return params;
}

/**
 * Splits the raw path on '/' and percent-decodes each segment on its own. One
 * trailing slash is ignored, as Express does; a malformed escape is a 400.
 */
export function pathSegments(rawPath: string): string[] {
  const parts = rawPath.split('/').slice(1);
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  return parts.map((part) => {
    try {
      return decodeURIComponent(part);
    } catch {
      throw badRequest(`Failed to decode param '${part}'`);
    }
  });
}
