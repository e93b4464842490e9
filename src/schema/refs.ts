/**
 * What an Artist, Song or Album is while a query runs: its slug plus
 * whatever the parent record already told us about it (`known`). A field
 * found in `known` costs no upstream call; any other field loads the full
 * record once per request through the loader, shared by every field and
 * every place in the query that needs it.
 */
import { endpoints, type UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import type {
  AlbumRecord,
  AlbumSummary,
  ArtistProfile,
  ArtistSummary,
  SongRecord,
  SongSummary,
  UpstreamRecord,
} from '../upstream/records.js';
import type { GatewayContext } from './context.js';
import type { KeyLevels, ObjectReads } from './field-reads.js';
import { andThen, type MaybePromise } from './maybe-promise.js';
import { upstreamField } from './upstream-fields.js';

export interface ArtistShape {
  readonly kind: 'artist';
  readonly slug: string;
  readonly known: Partial<ArtistProfile>;
}

/** How to find a song whose slug the parent does not know (milestones, chart entries). */
export interface SongLookup {
  readonly title: string;
  /** Null when the parent did not say; then the artist's profile tells it. */
  readonly artistName: string | null;
  readonly artistSlug?: string | null;
  readonly songId: string | null;
}

export interface SongShape {
  readonly kind: 'song';
  readonly slug: string | null;
  readonly known: Partial<SongRecord>;
  readonly lookup?: SongLookup;
}

export interface AlbumShape {
  readonly kind: 'album';
  readonly slug: string;
  readonly known: Partial<AlbumRecord>;
}

export const artistRef = (slug: string, known: Partial<ArtistProfile> = { slug }): ArtistShape => ({
  kind: 'artist',
  slug,
  known,
});
export const artistFromSummary = (summary: ArtistSummary): ArtistShape =>
  artistRef(summary.slug, summary);

export const songRef = (slug: string, known: Partial<SongRecord> = { slug }): SongShape => ({
  kind: 'song',
  slug,
  known,
});
export const songFromSummary = (summary: SongSummary): SongShape => songRef(summary.slug, summary);
export const songFromLookup = (lookup: SongLookup): SongShape => ({
  kind: 'song',
  slug: null,
  known:
    lookup.artistName === null
      ? { title: lookup.title }
      : { title: lookup.title, artistName: lookup.artistName },
  lookup,
});

export const albumRef = (slug: string, known: Partial<AlbumRecord> = { slug }): AlbumShape => ({
  kind: 'album',
  slug,
  known,
});
export const albumFromSummary = (summary: AlbumSummary): AlbumShape =>
  albumRef(summary.slug, summary);

/**
 * What a parent may hold of an Artist, Song or Album, least first, and the
 * read that loads the rest: declared on each type (`upstream`), made by the
 * loaders below, once per object however many fields need it. The printed
 * cost directives weigh a field from the level a parent most often hands
 * down (`directivesAssume`): a list item's summary, a song's album by slug.
 */
export const ARTIST_LEVELS: ObjectReads = {
  levels: [
    { holds: 'slug' },
    { holds: 'link', loadedBy: endpoints.artist },
    { holds: 'milestone', loadedBy: endpoints.artist },
    { holds: 'summary', loadedBy: endpoints.artist },
    { holds: 'record', loadedBy: endpoints.artist },
  ],
  directivesAssume: 'summary',
};
/** A song known by title alone is found by search (`findSong`), which gives its summary. */
export const SONG_LEVELS: ObjectReads = {
  levels: [
    { holds: 'lookup' },
    { holds: 'summary', loadedBy: endpoints.searchSongs },
    { holds: 'record', loadedBy: endpoints.song },
  ],
  directivesAssume: 'summary',
};
export const ALBUM_LEVELS: ObjectReads = {
  levels: [
    { holds: 'slug' },
    { holds: 'summary', loadedBy: endpoints.album },
    { holds: 'record', loadedBy: endpoints.album },
  ],
  directivesAssume: 'slug',
};

/**
 * The level that first holds each key of a record: what each parent puts in
 * `known` (`artistRef(slug, { slug, name })` is a link, a milestone adds the
 * image and flag, a list item is the summary). A field answering a key needs
 * its level (record-fields.ts).
 */
export const ARTIST_KEYS = {
  slug: 'slug',
  name: 'link',
  imageUrl: 'milestone',
  isAfrobeats: 'milestone',
  id: 'summary',
  country: 'summary',
  totalStreams: 'summary',
  dailyStreams: 'summary',
  monthlyListeners: 'summary',
  followers: 'record',
  charts: 'record',
  awards: 'record',
  topSongs: 'record',
} as const satisfies KeyLevels<ArtistProfile>;
/** A song found by title holds the title, and the artist's name only when its parent said it. */
export const SONG_KEYS = {
  title: 'lookup',
  id: 'summary',
  slug: 'summary',
  artistSlug: 'summary',
  artistName: 'summary',
  albumSlug: 'summary',
  releaseDate: 'summary',
  isAfrobeats: 'summary',
  imageUrl: 'summary',
  totalStreams: 'summary',
  dailyStreams: 'summary',
  durationMs: 'record',
  featuredArtists: 'record',
} as const satisfies KeyLevels<SongRecord>;
export const ALBUM_KEYS = {
  slug: 'slug',
  id: 'summary',
  title: 'summary',
  artistSlug: 'summary',
  artistName: 'summary',
  albumType: 'summary',
  releaseDate: 'summary',
  isAfrobeats: 'summary',
  imageUrl: 'summary',
  trackCount: 'summary',
  totalStreams: 'summary',
  dailyStreams: 'summary',
  tracks: 'record',
} as const satisfies KeyLevels<AlbumRecord>;

/** The three refetchable types, loaded by slug: proving the record exists, so unknown slugs are NOT_FOUND. */
export const nodeLoaders = {
  Artist: (slug: string, context: GatewayContext): MaybePromise<ArtistShape> =>
    andThen(context.loader.read(endpoints.artist(slug)), (profile) =>
      artistRef(profile.slug, profile),
    ),
  Song: async (slug: string, context: GatewayContext): Promise<SongShape> => {
    const record = await context.loader.load(endpoints.song(slug));
    return songRef(record.slug, record);
  },
  Album: async (slug: string, context: GatewayContext): Promise<AlbumShape> => {
    const record = await context.loader.load(endpoints.album(slug));
    return albumRef(record.slug, record);
  },
} as const;

/**
 * A field the parent already told us, or else the full record's: at once when this process
 * holds it as current, otherwise loaded once per request. Unreadable in either, it is an error
 * at the field.
 */
function knownOrLoaded<R extends UpstreamRecord, K extends keyof R & string>(
  known: Partial<R>,
  field: K,
  request: () => UpstreamRequest<R>,
  context: GatewayContext,
): MaybePromise<R[K]> {
  if (known.unreadable?.[field] !== undefined) return upstreamField(known as R, field);
  const value = known[field];
  if (value !== undefined) return value as R[K];
  return andThen(context.loader.read(request()), (record) => upstreamField(record, field));
}

export function artistField<K extends keyof ArtistProfile>(
  artist: ArtistShape,
  field: K,
  context: GatewayContext,
): MaybePromise<ArtistProfile[K]> {
  return knownOrLoaded(artist.known, field, () => endpoints.artist(artist.slug), context);
}

export function albumField<K extends keyof AlbumRecord>(
  album: AlbumShape,
  field: K,
  context: GatewayContext,
): MaybePromise<AlbumRecord[K]> {
  return knownOrLoaded(album.known, field, () => endpoints.album(album.slug), context);
}

/** A song or album whose body does not say whose it is. */
export const missingArtist = () =>
  new UpstreamError(
    'UPSTREAM_INVALID_RESPONSE',
    'The upstream API sent no readable "artistSlug" for this record',
  );

const sameText = (a: string | null | undefined, b: string) =>
  a != null && a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * Finds a song by title and artist name through the search endpoint, picking
 * the exact match (by id when the parent knows it). Null when nothing matches.
 */
export async function findSong(
  lookup: SongLookup,
  context: GatewayContext,
): Promise<SongSummary | null> {
  const artistName = lookup.artistName ?? (await artistNameOf(lookup, context));
  const { items: results } = await context.loader.load(
    endpoints.searchSongs(lookup.title, artistName),
  );
  if (lookup.songId !== null) {
    const byId = results.find((song) => song.id === lookup.songId);
    if (byId !== undefined) return byId;
  }
  return (
    results.find(
      (song) => sameText(song.title, lookup.title) && sameText(song.artistName, artistName),
    ) ?? null
  );
}

/** The artist's name from its profile, when the record naming the song did not carry it. */
async function artistNameOf(lookup: SongLookup, context: GatewayContext): Promise<string> {
  if (lookup.artistSlug == null) {
    throw new UpstreamError(
      'UPSTREAM_INVALID_RESPONSE',
      'The upstream API named neither the artist nor its slug for this song',
    );
  }
  return artistField(artistRef(lookup.artistSlug), 'name', context);
}

/** The song's summary when the parent had to look it up by title, else null. */
async function summaryOf(song: SongShape, context: GatewayContext): Promise<SongSummary | null> {
  if (song.lookup === undefined) return null;
  const summary = await findSong(song.lookup, context);
  if (summary === null) {
    throw new UpstreamError('NOT_FOUND', `Song "${song.lookup.title}" not found`);
  }
  return summary;
}

export async function songSlugOf(song: SongShape, context: GatewayContext): Promise<string> {
  if (song.slug !== null) return song.slug;
  return (await summaryOf(song, context))?.slug ?? '';
}

export function songField<K extends keyof SongRecord>(
  song: SongShape,
  field: K,
  context: GatewayContext,
): MaybePromise<SongRecord[K]> {
  if (song.known.unreadable?.[field] !== undefined)
    return upstreamField(song.known as SongRecord, field);
  const known = song.known[field];
  if (known !== undefined) return known as SongRecord[K];
  if (song.lookup !== undefined) return foundSongField(song, field, context);
  return andThen(context.loader.read(endpoints.song(song.slug ?? '')), (record) =>
    upstreamField(record, field),
  );
}

/** A field of a song the parent named only by title: from the search's summary, or its record. */
async function foundSongField<K extends keyof SongRecord>(
  song: SongShape,
  field: K,
  context: GatewayContext,
): Promise<SongRecord[K]> {
  const summary = await summaryOf(song, context);
  if (summary !== null && field in summary) return upstreamField(summary as SongRecord, field);
  const record = await context.loader.load(endpoints.song(summary?.slug ?? song.slug ?? ''));
  return upstreamField(record, field);
}
