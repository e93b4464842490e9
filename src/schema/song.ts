import { endpoints } from '../upstream/endpoints.js';
import type { SongRecord } from '../upstream/records.js';
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
import { keyFields, recordReader } from './record-fields.js';
import {
  albumRef,
  artistRef,
  missingArtist,
  nodeLoaders,
  SONG_KEYS,
  SONG_LEVELS,
  type SongShape,
  songField,
  songFromSummary,
  songSlugOf,
} from './refs.js';
import { listItems } from './upstream-fields.js';

const song = recordReader<SongShape, SongRecord>(SONG_KEYS, songField);

/** The reads of a song's own fields (beyond its record), declared on each field and made through it. */
const historyReads = { bySlug: endpoints.songHistory, ...song.needs('slug') } satisfies FieldReads;
const streamMilestoneReads = {
  read: endpoints.songStreamFact,
  ...song.needs('artistSlug'),
} satisfies FieldReads;
const searchSongsReads = {
  read: endpoints.searchSongs,
  size: ASSUMED_LIST_SIZES.searchResults,
  knows: 'summary',
} satisfies FieldReads;

builder.node(SongRef, {
  description: 'A song (a track), with its streaming totals, artist, album and history.',
  upstream: SONG_LEVELS,
  isTypeOf: (value) => (value as SongShape).kind === 'song',
  // A song known by title alone is searched for its slug.
  id: { resolve: (s, _, context) => songSlugOf(s, context), upstream: song.needs('slug') },
  loadOne: (slug, context) => nodeLoaders.Song(slugArg(slug, 'id'), context),
  fields: (t) => {
    const held = keyFields(t, song);
    return {
      slug: t.string({
        description:
          'Stable identifier used in upstream URLs, built from the artist slug and the title.',
        upstream: song.needs('slug'),
        resolve: (s, _, c) => songSlugOf(s, c),
      }),
      title: held.required('title', 'String', 'Title of the song.'),
      artist: t.field({
        type: ArtistRef,
        description: 'The main artist.',
        ...song.key(
          'artistSlug',
          (slug, s) => {
            if (slug === null) throw missingArtist();
            const name = s.known.artistName;
            return artistRef(slug, name == null ? { slug } : { slug, name });
          },
          { knows: 'link' },
        ),
      }),
      album: t.field({
        type: AlbumRef,
        nullable: true,
        description: 'The album the song appears on; null for a song released on its own.',
        ...song.key('albumSlug', (slug) => (slug === null ? null : albumRef(slug)), {
          knows: 'slug',
        }),
      }),
      releaseDate: held('releaseDate', 'Date', 'Release day.'),
      isAfrobeats: held('isAfrobeats', 'Boolean', 'Whether the song is flagged Afrobeats.'),
      imageUrl: held('imageUrl', 'URL', 'Cover art.'),
      totalStreams: held('totalStreams', 'SafeInt', 'All-time streams across platforms.'),
      dailyStreams: held('dailyStreams', 'SafeInt', 'Streams on the latest day.'),
      durationMs: held('durationMs', 'Int', 'Length in milliseconds (needs the full song record).'),
      featuredArtists: t.field({
        type: [ArtistRef],
        nullable: true,
        description:
          'Artists featured on the song (needs the full song record); null when the upstream does not say.',
        ...song.key(
          'featuredArtists',
          (links, _, c, info) =>
            listItems(links, c, info)?.map((link) =>
              artistRef(
                link.slug,
                link.name === null ? { slug: link.slug } : { slug: link.slug, name: link.name },
              ),
            ) ?? null,
          { size: ASSUMED_LIST_SIZES.featuredArtists, knows: 'link' },
        ),
      }),
      history: t.field({
        type: [StreamSnapshotRef],
        nullable: true,
        description: 'Daily snapshots, oldest first.',
        upstream: historyReads,
        resolve: async (s, _, c, info) =>
          listItems(await c.loader.load(historyReads.bySlug(await songSlugOf(s, c))), c, info),
      }),
      streamMilestone: t.field({
        type: MilestoneFactRef,
        nullable: true,
        description: 'Whether the song has reached `threshold` all-time streams, and when.',
        upstream: streamMilestoneReads,
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
    };
  },
});

builder.queryFields((t) => ({
  song: t.field({
    type: SongRef,
    nullable: true,
    description: 'A song by slug; null with a NOT_FOUND error when there is none.',
    upstream: { read: endpoints.song, knows: 'record' },
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
    upstream: searchSongsReads,
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
