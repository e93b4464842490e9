import { endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { type Edge, pagedConnection } from './connections.js';
import { AlbumSortEnum, AlbumTypeEnum } from './enums.js';
import { ASSUMED_LIST_SIZES, type FieldReads, READS_NOTHING } from './field-reads.js';
import { slugArg } from './inputs.js';
import { AlbumRef, ArtistRef, SongRef, TrackRef } from './object-refs.js';
import {
  ALBUM_LEVELS,
  type AlbumShape,
  albumField,
  albumFromSummary,
  artistRef,
  missingArtist,
  nodeLoaders,
  songFromSummary,
} from './refs.js';
import { fromRecordRequired, listItems, reportDropped, upstreamList } from './upstream-fields.js';

const albumsReads = { pages: endpoints.albumsPage, connection: 'summary' } satisfies FieldReads;

builder.node(AlbumRef, {
  description: 'An album, single or EP, with its tracks.',
  extensions: { upstream: ALBUM_LEVELS },
  isTypeOf: (value) => (value as AlbumShape).kind === 'album',
  id: { resolve: (album) => album.slug, extensions: { upstream: READS_NOTHING } },
  loadOne: (slug, context) => nodeLoaders.Album(slugArg(slug, 'id'), context),
  fields: (t) => ({
    slug: t.exposeString('slug', { description: 'Stable identifier used in upstream URLs.' }),
    title: t.string({
      description: 'Title of the release.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'title', c),
    }),
    artist: t.field({
      type: ArtistRef,
      description: 'The main artist.',
      extensions: { upstream: { needs: 'summary', knows: 'link' } },
      resolve: async (a, _, c) => {
        const [slug, name] = await Promise.all([
          albumField(a, 'artistSlug', c),
          albumField(a, 'artistName', c),
        ]);
        if (slug === null) throw missingArtist();
        return artistRef(slug, name === null ? { slug } : { slug, name });
      },
    }),
    albumType: t.field({
      type: AlbumTypeEnum,
      nullable: true,
      description: 'Album, single or EP.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'albumType', c),
    }),
    releaseDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'Release day.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'releaseDate', c),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description: 'Whether the release is flagged Afrobeats.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'isAfrobeats', c),
    }),
    imageUrl: t.field({
      type: 'URL',
      nullable: true,
      description: 'Cover art.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'imageUrl', c),
    }),
    trackCount: t.int({
      nullable: true,
      description: 'Number of tracks.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'trackCount', c),
    }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams of all tracks.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'totalStreams', c),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams of all tracks on the latest day.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (a, _, c) => albumField(a, 'dailyStreams', c),
    }),
    tracks: t.field({
      type: [TrackRef],
      nullable: true,
      description:
        'Tracks in order (needs the full album record); null when the upstream lists none.',
      extensions: { upstream: { needs: 'record', size: ASSUMED_LIST_SIZES.albumTracks } },
      resolve: async (a, _, c, info) => listItems(await albumField(a, 'tracks', c), c, info),
    }),
  }),
});

TrackRef.implement({
  description: 'A song at its place on an album.',
  fields: (t) => ({
    trackNumber: t.int({
      description: 'Position on the album, from 1.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('trackNumber'),
    }),
    song: t.field({
      type: SongRef,
      description: 'The song.',
      extensions: { upstream: { knows: 'summary' } },
      resolve: (track) => songFromSummary(track.song),
    }),
  }),
});

builder.queryFields((t) => ({
  album: t.field({
    type: AlbumRef,
    nullable: true,
    description: 'An album by slug; null with a NOT_FOUND error when there is none.',
    extensions: { upstream: { read: endpoints.album, knows: 'record' } },
    args: {
      slug: t.arg.string({
        required: true,
        description: 'Album slug, e.g. `burna-boy-love-damini`.',
      }),
    },
    resolve: (_, args, c) => nodeLoaders.Album(slugArg(args.slug), c),
  }),
  albums: t.connection(
    {
      type: AlbumRef,
      nullable: true,
      description: 'Browse albums, singles and EPs.',
      extensions: { upstream: albumsReads },
      args: {
        isAfrobeats: t.arg.boolean({
          description: 'Only Afrobeats releases (true) or only others (false).',
        }),
        albumType: t.arg({ type: AlbumTypeEnum, description: 'Only releases of this kind.' }),
        sortBy: t.arg({ type: AlbumSortEnum, description: 'Order of the list.' }),
      },
      resolve: (_, args, c, info) => {
        const filter = {
          isAfrobeats: args.isAfrobeats,
          albumType: args.albumType,
          sortBy: args.sortBy,
        };
        return pagedConnection(
          args,
          upstreamList(c, (page) => albumsReads.pages(page, filter)),
          (album, cursor): Edge<AlbumShape> => ({ cursor, node: albumFromSummary(album) }),
          (dropped) => reportDropped(dropped, c, info),
        );
      },
    },
    {
      name: 'AlbumConnection',
      description: 'A page of albums.',
      fields: (t) => ({
        totalCount: t.int({
          description: 'Number of albums matching the filters (upstream `meta.total`).',
          extensions: { upstream: READS_NOTHING },
          resolve: (c) => c.totalCount,
        }),
      }),
    },
    { name: 'AlbumEdge', description: 'An album in a page of albums.' },
  ),
}));
