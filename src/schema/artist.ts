import { endpoints } from '../upstream/endpoints.js';
import type { ArtistProfile } from '../upstream/records.js';
import { builder } from './builder.js';
import { arrayConnection, type Edge, pagedConnection, windowRequest } from './connections.js';
import { ArtistSortEnum } from './enums.js';
import { ASSUMED_LIST_SIZES, type FieldReads, READS_NOTHING } from './field-reads.js';
import { artistSlugArg, countryArg, letterArg, optionalSearchArg, thresholdArg } from './inputs.js';
import { andThen } from './maybe-promise.js';
import {
  ArtistChartPositionRef,
  ArtistRef,
  AwardRef,
  MilestoneFactRef,
  MilestoneRef,
  SongRef,
  StreamSnapshotRef,
} from './object-refs.js';
import { prefetchArtistChildren } from './prefetch.js';
import { keyFields, recordReader } from './record-fields.js';
import {
  ARTIST_KEYS,
  ARTIST_LEVELS,
  type ArtistShape,
  artistField,
  artistFromSummary,
  nodeLoaders,
  songFromSummary,
} from './refs.js';
import { listItems, reportDropped, upstreamList } from './upstream-fields.js';

/** The reads of an artist's own fields (beyond its profile), declared on each field and made through it. */
const songsReads = {
  bySlug: (slug, c) => endpoints.songsOfArtist(slug, c.assumptions.songsOfArtistLimit),
  // Refused arguments cost no read (the cold fan-out makes the same check: prefetch.ts).
  checkArgs: windowRequest,
  connection: 'summary',
} satisfies FieldReads;
const historyReads = { bySlug: endpoints.artistHistory } satisfies FieldReads;
const milestonesReads = {
  bySlug: endpoints.timeline,
  size: ASSUMED_LIST_SIZES.timeline,
} satisfies FieldReads;
const artistsReads = { pages: endpoints.artistsPage, connection: 'summary' } satisfies FieldReads;

const artist = recordReader<ArtistShape, ArtistProfile>(ARTIST_KEYS, artistField);

type ArtistFieldBuilder = PothosSchemaTypes.ObjectFieldBuilder<
  typeof builder.$inferSchemaTypes,
  ArtistShape
>;

/** Whether the artist has reached the count the client asks about (`read`), and when. */
function thresholdFact(
  t: ArtistFieldBuilder,
  read: typeof endpoints.artistStreamFact,
  description: string,
  example: string,
) {
  const reads = { read } satisfies FieldReads;
  return t.field({
    type: MilestoneFactRef,
    nullable: true,
    description,
    args: { threshold: t.arg({ type: 'SafeInt', required: true, description: example }) },
    upstream: reads,
    resolve: (a, args, c) => c.loader.load(reads.read(a.slug, thresholdArg(args.threshold))),
  });
}

builder.node(ArtistRef, {
  description:
    'A recording artist, with streaming totals, awards, chart positions, songs and milestones.',
  upstream: ARTIST_LEVELS,
  isTypeOf: (value) => (value as ArtistShape).kind === 'artist',
  id: { resolve: (a) => a.slug, upstream: READS_NOTHING },
  // Loading the profile proves the artist exists, so node(id:) answers null for unknown slugs.
  loadOne: (slug, context) => nodeLoaders.Artist(artistSlugArg(slug, 'id'), context),
  fields: (t) => {
    const held = keyFields(t, artist);
    return {
      slug: t.exposeString('slug', {
        description: 'Stable identifier used in upstream URLs, e.g. `burna-boy`.',
      }),
      name: held.required('name', 'String', 'Display name.'),
      imageUrl: held('imageUrl', 'URL', 'Portrait image.'),
      country: held(
        'country',
        'String',
        'ISO 3166-1 alpha-2 country code (`UK` for the United Kingdom).',
      ),
      isAfrobeats: held(
        'isAfrobeats',
        'Boolean',
        'Whether the artist is flagged Afrobeats; null when the upstream does not say.',
      ),
      totalStreams: held('totalStreams', 'SafeInt', 'All-time streams across platforms.'),
      dailyStreams: held('dailyStreams', 'SafeInt', 'Streams on the latest day.'),
      monthlyListeners: held('monthlyListeners', 'SafeInt', 'Listeners over the last 28 days.'),
      followers: held(
        'followers',
        'SafeInt',
        'Followers across platforms (needs the full profile).',
      ),
      awards: t.field({
        type: [AwardRef],
        nullable: true,
        description: 'Awards won and nominations; null when the profile lists none.',
        ...artist.key('awards', (awards, _, c, info) => listItems(awards, c, info)),
      }),
      chartPositions: t.field({
        type: [ArtistChartPositionRef],
        nullable: true,
        description:
          "The artist's current positions on the weekly charts; null when the profile lists none.",
        ...artist.key(
          'charts',
          (charts, _, c, info) =>
            listItems(charts, c, info)?.map((record) => ({
              chart: { name: record.chartName, territory: record.chartTerritory },
              record,
            })) ?? null,
          { size: ASSUMED_LIST_SIZES.charts },
        ),
      }),
      topSongs: t.field({
        type: [SongRef],
        nullable: true,
        description: 'Up to 10 most-streamed songs, most first; null when the profile lists none.',
        ...artist.key(
          'topSongs',
          (songs, _, c, info) => listItems(songs, c, info)?.map(songFromSummary) ?? null,
          { size: ASSUMED_LIST_SIZES.topSongs, knows: 'summary' },
        ),
      }),
      songs: t.connection(
        {
          type: SongRef,
          nullable: true,
          description: 'All songs of the artist, most-streamed first.',
          upstream: songsReads,
          resolve: (a, args, c, info) => {
            const window = songsReads.checkArgs(args);
            return andThen(c.loader.read(songsReads.bySlug(a.slug, c)), (songs) =>
              arrayConnection(window, listItems(songs, c, info)?.map(songFromSummary) ?? []),
            );
          },
        },
        {
          name: 'SongConnection',
          description: 'A page of songs.',
          fields: (t) => ({
            totalCount: t.int({
              description: 'Number of songs in the whole list.',
              upstream: READS_NOTHING,
              resolve: (c) => c.totalCount,
            }),
          }),
        },
        { name: 'SongEdge', description: 'A song in a page of songs.' },
      ),
      history: t.field({
        type: [StreamSnapshotRef],
        nullable: true,
        description: 'Daily snapshots of the last 90 days, oldest first.',
        upstream: historyReads,
        resolve: (a, _, c, info) =>
          andThen(c.loader.read(historyReads.bySlug(a.slug)), (history) =>
            listItems(history, c, info),
          ),
      }),
      milestones: t.field({
        type: [MilestoneRef],
        nullable: true,
        description:
          "The artist's milestone timeline (artist and song thresholds crossed), oldest first.",
        upstream: milestonesReads,
        resolve: (a, _, c, info) =>
          andThen(c.loader.read(milestonesReads.bySlug(a.slug)), (milestones) =>
            listItems(milestones, c, info),
          ),
      }),
      streamMilestone: thresholdFact(
        t,
        endpoints.artistStreamFact,
        'Whether the artist has reached `threshold` all-time streams, and when.',
        'A stream count, e.g. 1000000000.',
      ),
      listenerMilestone: thresholdFact(
        t,
        endpoints.artistListenerFact,
        'Whether the artist has reached `threshold` monthly listeners, and when.',
        'A listener count, e.g. 10000000.',
      ),
    };
  },
});

builder.queryFields((t) => ({
  artist: t.field({
    type: ArtistRef,
    nullable: true,
    description: 'An artist by slug; null with a NOT_FOUND error when there is none.',
    args: { slug: t.arg.string({ required: true, description: 'Artist slug, e.g. `burna-boy`.' }) },
    // The profile (nodeLoaders.Artist); the selected children's reads start with it (prefetch.ts).
    upstream: { read: endpoints.artist, knows: 'record' },
    resolve: (_, args, c, info) => {
      const slug = artistSlugArg(args.slug);
      const artist = nodeLoaders.Artist(slug, c);
      // A held profile's children resolve at once, in this same turn: their reads leave together
      // without being started here.
      if (!(artist instanceof Promise)) return artist;
      // The children's reads start with the profile's: one upstream round trip for a whole page.
      const children = prefetchArtistChildren(slug, info, c).catch(() => undefined);
      return Promise.all([artist, children]).then(([loaded]) => loaded);
    },
  }),
  artists: t.connection(
    {
      type: ArtistRef,
      nullable: true,
      description: 'Browse artists, sorted by total streams unless `sortBy` says otherwise.',
      upstream: artistsReads,
      args: {
        letter: t.arg.string({ description: 'Only artists whose name starts with this letter.' }),
        country: t.arg.string({
          description: 'Only artists from this country (ISO 3166-1 alpha-2).',
        }),
        isAfrobeats: t.arg.boolean({
          description: 'Only Afrobeats artists (true) or only others (false).',
        }),
        sortBy: t.arg({ type: ArtistSortEnum, description: 'Order of the list.' }),
        search: t.arg.string({ description: 'Case-insensitive search in artist names.' }),
      },
      resolve: (_, args, c, info) => {
        const filter = {
          letter: letterArg(args.letter),
          country: countryArg(args.country),
          isAfrobeats: args.isAfrobeats,
          sortBy: args.sortBy,
          search: optionalSearchArg(args.search, 'search'),
        };
        return pagedConnection(
          args,
          upstreamList(c, (page) => artistsReads.pages(page, filter)),
          (artist, cursor): Edge<ArtistShape> => ({ cursor, node: artistFromSummary(artist) }),
          (dropped) => reportDropped(dropped, c, info),
        );
      },
    },
    {
      name: 'ArtistConnection',
      description: 'A page of artists.',
      fields: (t) => ({
        totalCount: t.int({
          description: 'Number of artists matching the filters (upstream `meta.total`).',
          upstream: READS_NOTHING,
          resolve: (c) => c.totalCount,
        }),
      }),
    },
    { name: 'ArtistEdge', description: 'An artist in a page of artists.' },
  ),
}));
