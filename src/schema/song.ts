import { endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { ASSUMED_LIST_SIZES, type FieldReads } from './field-reads.js';
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
  SONG_LEVELS,
  type SongShape,
  songField,
  songFromSummary,
  songSlugOf,
} from './refs.js';
import { listItems } from './upstream-fields.js';

/** The reads of a song's own fields (beyond its record), declared on each field and made through it. */
const historyReads = { bySlug: endpoints.songHistory, needs: 'summary' } satisfies FieldReads;
const streamMilestoneReads = {
  read: endpoints.songStreamFact,
  needs: 'summary',
} satisfies FieldReads;
const searchSongsReads = {
  read: endpoints.searchSongs,
  size: ASSUMED_LIST_SIZES.searchResults,
  knows: 'summary',
} satisfies FieldReads;

builder.node(SongRef, {
  description: 'A song (a track), with its streaming totals, artist, album and history.',
  extensions: { upstream: SONG_LEVELS },
  isTypeOf: (value) => (value as SongShape).kind === 'song',
  // A song known by title alone is searched for its slug.
  id: {
    resolve: (song, _, context) => songSlugOf(song, context),
    extensions: { upstream: { needs: 'summary' } },
  },
  loadOne: (slug, context) => nodeLoaders.Song(slugArg(slug, 'id'), context),
  fields: (t) => ({
    slug: t.string({
      description:
        'Stable identifier used in upstream URLs, built from the artist slug and the title.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songSlugOf(s, c),
    }),
    title: t.string({
      description: 'Title of the song.',
      extensions: { upstream: { needs: 'lookup' } },
      resolve: (s, _, c) => songField(s, 'title', c),
    }),
    artist: t.field({
      type: ArtistRef,
      description: 'The main artist.',
      extensions: { upstream: { needs: 'summary', knows: 'link' } },
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
      extensions: { upstream: { needs: 'summary', knows: 'slug' } },
      resolve: async (s, _, c) => {
        const slug = await songField(s, 'albumSlug', c);
        return slug === null ? null : albumRef(slug);
      },
    }),
    releaseDate: t.field({
      type: 'Date',
      nullable: true,
      description: 'Release day.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songField(s, 'releaseDate', c),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description: 'Whether the song is flagged Afrobeats.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songField(s, 'isAfrobeats', c),
    }),
    imageUrl: t.field({
      type: 'URL',
      nullable: true,
      description: 'Cover art.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songField(s, 'imageUrl', c),
    }),
    totalStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'All-time streams across platforms.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songField(s, 'totalStreams', c),
    }),
    dailyStreams: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Streams on the latest day.',
      extensions: { upstream: { needs: 'summary' } },
      resolve: (s, _, c) => songField(s, 'dailyStreams', c),
    }),
    durationMs: t.int({
      nullable: true,
      description: 'Length in milliseconds (needs the full song record).',
      extensions: { upstream: { needs: 'record' } },
      resolve: (s, _, c) => songField(s, 'durationMs', c),
    }),
    featuredArtists: t.field({
      type: [ArtistRef],
      nullable: true,
      description:
        'Artists featured on the song (needs the full song record); null when the upstream does not say.',
      extensions: {
        upstream: { needs: 'record', size: ASSUMED_LIST_SIZES.featuredArtists, knows: 'link' },
      },
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
      extensions: { upstream: historyReads },
      resolve: async (s, _, c, info) =>
        listItems(await c.loader.load(historyReads.bySlug(await songSlugOf(s, c))), c, info),
    }),
    streamMilestone: t.field({
      type: MilestoneFactRef,
      nullable: true,
      description: 'Whether the song has reached `threshold` all-time streams, and when.',
      extensions: { upstream: streamMilestoneReads },
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
        return c.loader.load(streamMilestoneReads.read(artistSlug, slug, threshold));
      },
    }),
  }),
});

builder.queryFields((t) => ({
  song: t.field({
    type: SongRef,
    nullable: true,
    description: 'A song by slug; null with a NOT_FOUND error when there is none.',
    extensions: { upstream: { read: endpoints.song, knows: 'record' } },
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
    extensions: { upstream: searchSongsReads },
    args: {
      title: t.arg.string({ required: true, description: 'Title, or part of it.' }),
      artistName: t.arg.string({ required: true, description: 'Artist name, or part of it.' }),
    },
    resolve: async (_, args, c, info) => {
      const songs = await c.loader.load(
        searchSongsReads.read(
          searchArg(args.title, 'title'),
          searchArg(args.artistName, 'artistName'),
        ),
      );
      return listItems(songs, c, info)?.map(songFromSummary) ?? [];
    },
  }),
}));
