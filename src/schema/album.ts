import { endpoints } from '../upstream/endpoints.js';
import type { AlbumRecord } from '../upstream/records.js';
import { builder } from './builder.js';
import { type Edge, pagedConnection } from './connections.js';
import { AlbumSortEnum, AlbumTypeEnum } from './enums.js';
import { ASSUMED_LIST_SIZES, type FieldReads, READS_NOTHING } from './field-reads.js';
import { slugArg } from './inputs.js';
import { AlbumRef, ArtistRef, SongRef, TrackRef } from './object-refs.js';
import { keyFields, recordReader } from './record-fields.js';
import {
  ALBUM_KEYS,
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

const album = recordReader<AlbumShape, AlbumRecord>(ALBUM_KEYS, albumField);

builder.node(AlbumRef, {
  description: 'An album, single or EP, with its tracks.',
  upstream: ALBUM_LEVELS,
  isTypeOf: (value) => (value as AlbumShape).kind === 'album',
  id: { resolve: (a) => a.slug, upstream: READS_NOTHING },
  loadOne: (slug, context) => nodeLoaders.Album(slugArg(slug, 'id'), context),
  fields: (t) => {
    const held = keyFields(t, album);
    return {
      slug: t.exposeString('slug', { description: 'Stable identifier used in upstream URLs.' }),
      title: held.required('title', 'String', 'Title of the release.'),
      artist: t.field({
        type: ArtistRef,
        description: 'The main artist.',
        ...album.key(
          'artistSlug',
          async (slug, a, c) => {
            const name = await albumField(a, 'artistName', c);
            if (slug === null) throw missingArtist();
            return artistRef(slug, name === null ? { slug } : { slug, name });
          },
          { knows: 'link' },
        ),
      }),
      albumType: held('albumType', AlbumTypeEnum, 'Album, single or EP.'),
      releaseDate: held('releaseDate', 'Date', 'Release day.'),
      isAfrobeats: held('isAfrobeats', 'Boolean', 'Whether the release is flagged Afrobeats.'),
      imageUrl: held('imageUrl', 'URL', 'Cover art.'),
      trackCount: held('trackCount', 'Int', 'Number of tracks.'),
      totalStreams: held('totalStreams', 'SafeInt', 'All-time streams of all tracks.'),
      dailyStreams: held('dailyStreams', 'SafeInt', 'Streams of all tracks on the latest day.'),
      tracks: t.field({
        type: [TrackRef],
        nullable: true,
        description:
          'Tracks in order (needs the full album record); null when the upstream lists none.',
        ...album.key('tracks', (tracks, _, c, info) => listItems(tracks, c, info), {
          size: ASSUMED_LIST_SIZES.albumTracks,
        }),
      }),
    };
  },
});

TrackRef.implement({
  description: 'A song at its place on an album.',
  fields: (t) => ({
    trackNumber: t.int({
      description: 'Position on the album, from 1.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('trackNumber'),
    }),
    song: t.field({
      type: SongRef,
      description: 'The song.',
      upstream: { knows: 'summary' },
      resolve: (track) => songFromSummary(track.song),
    }),
  }),
});

builder.queryFields((t) => ({
  album: t.field({
    type: AlbumRef,
    nullable: true,
    description: 'An album by slug; null with a NOT_FOUND error when there is none.',
    upstream: { read: endpoints.album, knows: 'record' },
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
      upstream: albumsReads,
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
          upstream: READS_NOTHING,
          resolve: (c) => c.totalCount,
        }),
      }),
    },
    { name: 'AlbumEdge', description: 'An album in a page of albums.' },
  ),
}));
