import { endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { arrayConnection, type Edge, pagedConnection, windowRequest } from './connections.js';
import { ArtistSortEnum } from './enums.js';
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
  type ArtistShape,
  artistField,
  artistFromSummary,
  nodeLoaders,
  songFromSummary,
} from './refs.js';
import { listItems, reportDropped, upstreamList } from './upstream-fields.js';

builder.node(ArtistRef, {
  description:
    'A recording artist, with streaming totals, awards, chart positions, songs and milestones.',
  isTypeOf: (value) => (value as ArtistShape).kind === 'artist',
  id: { resolve: (artist) => artist.slug },
  // Loading the profile proves the artist exists, so node(id:) answers null for unknown slugs.
  loadOne: (slug, context) => nodeLoaders.Artist(artistSlugArg(slug, 'id'), context),
  fields: (t) => ({
    slug: t.exposeString('slug', {
      description: 'Stable identifier used in upstream URLs, e.g. `burna-boy`.',
    }),
    name: t.string({
      description: 'Display name.',
      resolve: (a, _, c) => artistField(a, 'name', c),
    }),
    imageUrl: t.field({
      type: 'URL',
      nullable: true,
      description: 'Portrait image.',
      resolve: (a, _, c) => artistField(a, 'imageUrl', c),
    }),
    country: t.string({
      nullable: true,
      description: 'ISO 3166-1 alpha-2 country code (`UK` for the United Kingdom).',
      resolve: (a, _, c) => artistField(a, 'country', c),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description: 'Whether the artist is flagged Afrobeats; null when the upstream does not say.',
      resolve: (a, _, c) => artistField(a, 'isAfrobeats', c),
    }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams across platforms.',
      resolve: (a, _, c) => artistField(a, 'totalStreams', c),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams on the latest day.',
      resolve: (a, _, c) => artistField(a, 'dailyStreams', c),
    }),
    monthlyListeners: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Listeners over the last 28 days.',
      resolve: (a, _, c) => artistField(a, 'monthlyListeners', c),
    }),
    followers: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Followers across platforms (needs the full profile).',
      resolve: (a, _, c) => artistField(a, 'followers', c),
    }),
    awards: t.field({
      type: [AwardRef],
      nullable: true,
      description: 'Awards won and nominations; null when the profile lists none.',
      resolve: async (a, _, c, info) => listItems(await artistField(a, 'awards', c), c, info),
    }),
    chartPositions: t.field({
      type: [ArtistChartPositionRef],
      nullable: true,
      description:
        "The artist's current positions on the weekly charts; null when the profile lists none.",
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
      resolve: async (a, _, c, info) =>
        listItems(await artistField(a, 'topSongs', c), c, info)?.map(songFromSummary) ?? null,
    }),
    songs: t.connection(
      {
        type: SongRef,
        nullable: true,
        description: 'All songs of the artist, most-streamed first.',
        resolve: async (a, args, c, info) => {
          // Refused arguments cost no read (the cold fan-out makes the same check: prefetch.ts).
          const window = windowRequest(args);
          const songs = await c.loader.load(
            endpoints.songsOfArtist(a.slug, c.assumptions.songsOfArtistLimit),
          );
          return arrayConnection(window, listItems(songs, c, info)?.map(songFromSummary) ?? []);
        },
      },
      {
        name: 'SongConnection',
        description: 'A page of songs.',
        fields: (t) => ({
          totalCount: t.int({
            description: 'Number of songs in the whole list.',
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
      resolve: async (a, _, c, info) =>
        listItems(await c.loader.load(endpoints.artistHistory(a.slug)), c, info),
    }),
    milestones: t.field({
      type: [MilestoneRef],
      nullable: true,
      description:
        "The artist's milestone timeline (artist and song thresholds crossed), oldest first.",
      resolve: async (a, _, c, info) =>
        listItems(await c.loader.load(endpoints.timeline(a.slug)), c, info),
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
      resolve: (a, args, c) =>
        c.loader.load(endpoints.artistStreamFact(a.slug, thresholdArg(args.threshold))),
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
      resolve: (a, args, c) =>
        c.loader.load(endpoints.artistListenerFact(a.slug, thresholdArg(args.threshold))),
    }),
  }),
});

builder.queryFields((t) => ({
  artist: t.field({
    type: ArtistRef,
    nullable: true,
    description: 'An artist by slug; null with a NOT_FOUND error when there is none.',
    args: { slug: t.arg.string({ required: true, description: 'Artist slug, e.g. `burna-boy`.' }) },
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
          upstreamList(c, (page) => endpoints.artistsPage(page, filter)),
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
          resolve: (c) => c.totalCount,
        }),
      }),
    },
    { name: 'ArtistEdge', description: 'An artist in a page of artists.' },
  ),
}));
