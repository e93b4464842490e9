import { endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { arrayConnection, type Edge, pagedConnection, windowRequest } from './connections.js';
import { ArtistSortEnum } from './enums.js';
import { ASSUMED_LIST_SIZES, type FieldReads, READS_NOTHING } from './field-reads.js';
import { artistSlugArg, countryArg, letterArg, optionalSearchArg, thresholdArg } from './inputs.js';
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
import {
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
const streamMilestoneReads = { read: endpoints.artistStreamFact } satisfies FieldReads;
const listenerMilestoneReads = { read: endpoints.artistListenerFact } satisfies FieldReads;
const artistsReads = { pages: endpoints.artistsPage, connection: 'summary' } satisfies FieldReads;

builder.node(ArtistRef, {
  description:
    'A recording artist, with streaming totals, awards, chart positions, songs and milestones.',
  extensions: { upstream: ARTIST_LEVELS },
  isTypeOf: (value) => (value as ArtistShape).kind === 'artist',
  id: { resolve: (artist) => artist.slug, extensions: { upstream: READS_NOTHING } },
  // Loading the profile proves the artist exists, so node(id:) answers null for unknown slugs.
  loadOne: (slug, context) => nodeLoaders.Artist(artistSlugArg(slug, 'id'), context),
  fields: (t) => ({
    slug: t.exposeString('slug', {
      description: 'Stable identifier used in upstream URLs, e.g. `burna-boy`.',
    }),
    name: t.string({
      description: 'Display name.',
      extensions: { upstream: { needs: 'link' } },
      resolve: (a, _, c) => artistField(a, 'name', c),
    }),
    imageUrl: t.field({
      type: 'URL',
      nullable: true,
      description: 'Portrait image.',
      extensions: { upstream: { needs: 'milestone' } },
      resolve: (a, _, c) => artistField(a, 'imageUrl', c),
    }),
    country: t.string({
      nullable: true,
      description: 'ISO 3166-1 alpha-2 country code (`UK` for the United Kingdom).',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => artistField(a, 'country', c),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description: 'Whether the artist is flagged Afrobeats; null when the upstream does not say.',
      extensions: { upstream: { needs: 'milestone' } },
      resolve: (a, _, c) => artistField(a, 'isAfrobeats', c),
    }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams across platforms.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => artistField(a, 'totalStreams', c),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams on the latest day.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => artistField(a, 'dailyStreams', c),
    }),
    monthlyListeners: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Listeners over the last 28 days.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => artistField(a, 'monthlyListeners', c),
    }),
    followers: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Followers across platforms (needs the full profile).',
      extensions: { upstream: { needs: 'record' } },
      resolve: (a, _, c) => artistField(a, 'followers', c),
    }),
    awards: t.field({
      type: [AwardRef],
      nullable: true,
      description: 'Awards won and nominations; null when the profile lists none.',
      extensions: { upstream: { needs: 'record' } },
      resolve: async (a, _, c, info) => listItems(await artistField(a, 'awards', c), c, info),
    }),
    chartPositions: t.field({
      type: [ArtistChartPositionRef],
      nullable: true,
      description:
        "The artist's current positions on the weekly charts; null when the profile lists none.",
      extensions: { upstream: { needs: 'record', size: ASSUMED_LIST_SIZES.charts } },
      resolve: async (a, _, c, info) =>
        listItems(await artistField(a, 'charts', c), c, info)?.map((record) => ({
          chart: { name: record.chartName, territory: record.chartTerritory },
          record,
        })) ?? null,
    }),
    topSongs: t.field({
      type: [SongRef],
      nullable: true,
      description: 'Up to 10 most-streamed songs, most first; null when the profile lists none.',
      extensions: {
        upstream: { needs: 'record', size: ASSUMED_LIST_SIZES.topSongs, knows: 'summary' },
      },
      resolve: async (a, _, c, info) =>
        listItems(await artistField(a, 'topSongs', c), c, info)?.map(songFromSummary) ?? null,
    }),
    songs: t.connection(
      {
        type: SongRef,
        nullable: true,
        description: 'All songs of the artist, most-streamed first.',
        extensions: { upstream: songsReads },
        resolve: async (a, args, c, info) => {
          const window = songsReads.checkArgs(args);
          const songs = await c.loader.load(songsReads.bySlug(a.slug, c));
          return arrayConnection(window, listItems(songs, c, info)?.map(songFromSummary) ?? []);
        },
      },
      {
        name: 'SongConnection',
        description: 'A page of songs.',
        fields: (t) => ({
          totalCount: t.int({
            description: 'Number of songs in the whole list.',
            extensions: { upstream: READS_NOTHING },
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
      extensions: { upstream: historyReads },
      resolve: async (a, _, c, info) =>
        listItems(await c.loader.load(historyReads.bySlug(a.slug)), c, info),
    }),
    milestones: t.field({
      type: [MilestoneRef],
      nullable: true,
      description:
        "The artist's milestone timeline (artist and song thresholds crossed), oldest first.",
      extensions: { upstream: milestonesReads },
      resolve: async (a, _, c, info) =>
        listItems(await c.loader.load(milestonesReads.bySlug(a.slug)), c, info),
    }),
    streamMilestone: t.field({
      type: MilestoneFactRef,
      nullable: true,
      description: 'Whether the artist has reached `threshold` all-time streams, and when.',
      args: {
        threshold: t.arg({
          type: 'SafeInt',
          required: true,
          description: 'A stream count, e.g. 1000000000.',
        }),
      },
      extensions: { upstream: streamMilestoneReads },
      resolve: (a, args, c) =>
        c.loader.load(streamMilestoneReads.read(a.slug, thresholdArg(args.threshold))),
    }),
    listenerMilestone: t.field({
      type: MilestoneFactRef,
      nullable: true,
      description: 'Whether the artist has reached `threshold` monthly listeners, and when.',
      args: {
        threshold: t.arg({
          type: 'SafeInt',
          required: true,
          description: 'A listener count, e.g. 10000000.',
        }),
      },
      extensions: { upstream: listenerMilestoneReads },
      resolve: (a, args, c) =>
        c.loader.load(listenerMilestoneReads.read(a.slug, thresholdArg(args.threshold))),
    }),
  }),
});

builder.queryFields((t) => ({
  artist: t.field({
    type: ArtistRef,
    nullable: true,
    description: 'An artist by slug; null with a NOT_FOUND error when there is none.',
    args: { slug: t.arg.string({ required: true, description: 'Artist slug, e.g. `burna-boy`.' }) },
    // The profile (nodeLoaders.Artist); the selected children's reads start with it (prefetch.ts).
    extensions: { upstream: { read: endpoints.artist, knows: 'record' } },
    resolve: async (_, args, c, info) => {
      const slug = artistSlugArg(args.slug);
      // The children's reads start with the profile's: one upstream round trip for a whole page.
      const [artist] = await Promise.all([
        nodeLoaders.Artist(slug, c),
        prefetchArtistChildren(slug, info, c).catch(() => undefined),
      ]);
      return artist;
    },
  }),
  artists: t.connection(
    {
      type: ArtistRef,
      nullable: true,
      description: 'Browse artists, sorted by total streams unless `sortBy` says otherwise.',
      extensions: { upstream: artistsReads },
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
          extensions: { upstream: READS_NOTHING },
          resolve: (c) => c.totalCount,
        }),
      }),
    },
    { name: 'ArtistEdge', description: 'An artist in a page of artists.' },
  ),
}));
