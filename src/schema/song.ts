import { endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { searchArg, slugArg, thresholdArg } from './inputs.js';
import {
  AlbumRef,
  ArtistRef,
  MilestoneFactRef,
  SongRef,
  StreamSnapshotRef,
} from './object-refs.js';
import {
  albumRef,
  artistRef,
  missingArtist,
  nodeLoaders,
  type SongShape,
  songField,
  songFromSummary,
  songSlugOf,
} from './refs.js';
import { listItems } from './upstream-fields.js';

builder.node(SongRef, {
  description: 'A song (a track), with its streaming totals, artist, album and history.',
  isTypeOf: (value) => (value as SongShape).kind === 'song',
  id: { resolve: (song, _, context) => songSlugOf(song, context) },
  loadOne: (slug, context) => nodeLoaders.Song(slugArg(slug, 'id'), context),
  fields: (t) => ({
    slug: t.string({
      description:
        'Stable identifier used in upstream URLs, built from the artist slug and the title.',
      resolve: (s, _, c) => songSlugOf(s, c),
    }),
    title: t.string({
      description: 'Title of the song.',
      resolve: (s, _, c) => songField(s, 'title', c),
    }),
    artist: t.field({
      type: ArtistRef,
      description: 'The main artist.',
      resolve: async (s, _, c) => {
        const [slug, name] = await Promise.all([songField(s, 'artistSlug', c), s.known.artistName]);
        if (slug === null) throw missingArtist();
        return artistRef(slug, name == null ? { slug } : { slug, name });
      },
    }),
    album: t.field({
      type: AlbumRef,
      nullable: true,
      description: 'The album the song appears on; null for a song released on its own.',
      resolve: async (s, _, c) => {
        const slug = await songField(s, 'albumSlug', c);
        return slug === null ? null : albumRef(slug);
      },
    }),
    releaseDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'Release day.',
      resolve: (s, _, c) => songField(s, 'releaseDate', c),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description: 'Whether the song is flagged Afrobeats.',
      resolve: (s, _, c) => songField(s, 'isAfrobeats', c),
    }),
    imageUrl: t.field({
      type: 'URL',
      nullable: true,
      description: 'Cover art.',
      resolve: (s, _, c) => songField(s, 'imageUrl', c),
    }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams across platforms.',
      resolve: (s, _, c) => songField(s, 'totalStreams', c),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams on the latest day.',
      resolve: (s, _, c) => songField(s, 'dailyStreams', c),
    }),
    durationMs: t.int({
      nullable: true,
      description: 'Length in milliseconds (needs the full song record).',
      resolve: (s, _, c) => songField(s, 'durationMs', c),
    }),
    featuredArtists: t.field({
      type: [ArtistRef],
      nullable: true,
      description:
        'Artists featured on the song (needs the full song record); null when the upstream does not say.',
      resolve: async (s, _, c, info) =>
        listItems(await songField(s, 'featuredArtists', c), c, info)?.map((link) =>
          artistRef(
            link.slug,
            link.name === null ? { slug: link.slug } : { slug: link.slug, name: link.name },
          ),
        ) ?? null,
    }),
    history: t.field({
      type: [StreamSnapshotRef],
      nullable: true,
      description: 'Daily snapshots, oldest first.',
      resolve: async (s, _, c, info) =>
        listItems(await c.loader.load(endpoints.songHistory(await songSlugOf(s, c))), c, info),
    }),
    streamMilestone: t.field({
      type: MilestoneFactRef,
      nullable: true,
      description: 'Whether the song has reached `threshold` all-time streams, and when.',
      args: {
        threshold: t.arg({
          type: 'SafeInt',
          required: true,
          description: 'A stream count, e.g. 100000000.',
        }),
      },
      resolve: async (s, args, c) => {
        const threshold = thresholdArg(args.threshold);
        const [slug, artistSlug] = await Promise.all([
          songSlugOf(s, c),
          songField(s, 'artistSlug', c),
        ]);
        if (artistSlug === null) throw missingArtist();
        return c.loader.load(endpoints.songStreamFact(artistSlug, slug, threshold));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  song: t.field({
    type: SongRef,
    nullable: true,
    description: 'A song by slug; null with a NOT_FOUND error when there is none.',
    args: {
      slug: t.arg.string({ required: true, description: 'Song slug, e.g. `burna-boy-last-last`.' }),
    },
    resolve: (_, args, c) => nodeLoaders.Song(slugArg(args.slug), c),
  }),
  searchSongs: t.field({
    type: [SongRef],
    nullable: true,
    description:
      'Songs matching a title and an artist name (case-insensitive); empty when nothing matches.',
    args: {
      title: t.arg.string({ required: true, description: 'Title, or part of it.' }),
      artistName: t.arg.string({ required: true, description: 'Artist name, or part of it.' }),
    },
    resolve: async (_, args, c, info) => {
      const songs = await c.loader.load(
        endpoints.searchSongs(
          searchArg(args.title, 'title'),
          searchArg(args.artistName, 'artistName'),
        ),
      );
      return listItems(songs, c, info)?.map(songFromSummary) ?? [];
    },
  }),
}));
