import { endpoints } from '../upstream/endpoints.js';
import type { TierArtistRecord, TierSongRecord } from '../upstream/records.js';
import { builder } from './builder.js';
import { type Edge, pagedConnection } from './connections.js';
import { ArtistTierEnum, SongTierEnum } from './enums.js';
import { ArtistRef, MilestoneRef, SongRef } from './object-refs.js';
import { type ArtistShape, type SongShape, artistFromSummary, artistRef, songFromLookup, songFromSummary } from './refs.js';

const STREAMS_SUFFIX = '_streams';

MilestoneRef.implement({
  description: 'The day an artist or one of their songs crossed a stream threshold on a platform.',
  fields: (t) => ({
    id: t.exposeID('id', { description: 'The upstream milestone id (compare it to poll for new milestones).' }),
    metric: t.exposeString('metric', { description: 'What was counted, `<platform>_streams`, e.g. `spotify_streams`.' }),
    platform: t.string({
      description: 'The platform, i.e. the metric without `_streams`, e.g. `spotify`.',
      resolve: (m) => (m.metric.endsWith(STREAMS_SUFFIX) ? m.metric.slice(0, -STREAMS_SUFFIX.length) : m.metric),
    }),
    threshold: t.expose('threshold', { type: 'SafeInt', description: 'The threshold crossed, e.g. 1000000000.' }),
    crossedAt: t.expose('crossedAt', { type: 'Date', description: 'Day it was crossed.' }),
    isAfrobeats: t.exposeBoolean('isAfrobeats', { description: 'Whether the artist is flagged Afrobeats.' }),
    streamValue: t.expose('streamValue', { type: 'SafeInt', nullable: true, description: 'Count observed when crossed.' }),
    artist: t.field({
      type: ArtistRef,
      description: 'The artist (name, slug and image come with the milestone at no extra cost).',
      resolve: (m) =>
        artistRef(m.artistSlug, {
          slug: m.artistSlug,
          ...(m.artistName !== null ? { name: m.artistName } : {}),
          ...(m.artistImageUrl !== null ? { imageUrl: m.artistImageUrl } : {}),
          isAfrobeats: m.isAfrobeats,
        }),
    }),
    song: t.field({
      type: SongRef,
      nullable: true,
      description: 'The song, for a song milestone; null for an artist milestone. Its title comes at no extra cost.',
      resolve: (m) =>
        m.songId === null && m.songTitle === null
          ? null
          : songFromLookup({ title: m.songTitle ?? '', artistName: m.artistName ?? '', songId: m.songId }),
    }),
  }),
});

const milestoneConnectionOptions = {
  name: 'MilestoneConnection',
  description: 'A page of milestones.',
} as const;

builder.queryFields((t) => ({
  recentMilestones: t.connection(
    {
      type: MilestoneRef,
      description: 'Milestones crossed recently, newest first. Poll it (about hourly) and compare ids to spot new ones.',
      args: { isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats artists (true) or only others (false).' }) },
      resolve: (_, args, c) =>
        pagedConnection(
          args,
          (page) => c.loader.load(endpoints.recentMilestonesPage(page, args.isAfrobeats)),
          (milestone, cursor) => ({ cursor, node: milestone }),
        ),
    },
    {
      ...milestoneConnectionOptions,
      fields: (t) => ({
        totalCount: t.int({ description: 'Number of milestones (upstream `meta.total`).', resolve: (c) => c.totalCount }),
      }),
    },
    { name: 'MilestoneEdge', description: 'A milestone in a page of milestones.' },
  ),
  artistsByTier: t.connection(
    {
      type: ArtistRef,
      description: 'Artists whose all-time streams crossed `tier`, with the day each crossed it.',
      args: {
        tier: t.arg({ type: ArtistTierEnum, required: true, description: 'The stream threshold.' }),
        isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats artists (true) or only others (false).' }),
      },
      resolve: (_, args, c) =>
        pagedConnection(
          args,
          (page) => c.loader.load(endpoints.artistsByTierPage(args.tier, page, args.isAfrobeats)),
          (record: TierArtistRecord, cursor): TierEdge<ArtistShape> => ({
            cursor,
            node: artistFromSummary(record.artist),
            crossedAt: record.crossedAt,
          }),
        ),
    },
    {
      name: 'TierArtistConnection',
      description: 'A page of artists that crossed a stream tier.',
      fields: (t) => ({
        totalCount: t.int({ description: 'Number of artists past the tier (upstream `meta.total`).', resolve: (c) => c.totalCount }),
      }),
    },
    {
      name: 'TierArtistEdge',
      description: 'An artist that crossed the tier.',
      fields: (t) => ({
        crossedAt: t.field({
          type: 'Date',
          nullable: true,
          description: 'Day the artist crossed the tier.',
          resolve: (edge) => (edge as TierEdge<ArtistShape>).crossedAt,
        }),
      }),
    },
  ),
  songsByTier: t.connection(
    {
      type: SongRef,
      description: 'Songs whose all-time streams crossed `tier`, with the day each crossed it.',
      args: { tier: t.arg({ type: SongTierEnum, required: true, description: 'The stream threshold.' }) },
      resolve: (_, args, c) =>
        pagedConnection(
          args,
          (page) => c.loader.load(endpoints.songsByTierPage(args.tier, page)),
          (record: TierSongRecord, cursor): TierEdge<SongShape> => ({
            cursor,
            node: songFromSummary(record.song),
            crossedAt: record.crossedAt,
          }),
        ),
    },
    {
      name: 'TierSongConnection',
      description: 'A page of songs that crossed a stream tier.',
      fields: (t) => ({
        totalCount: t.int({ description: 'Number of songs past the tier (upstream `meta.total`).', resolve: (c) => c.totalCount }),
      }),
    },
    {
      name: 'TierSongEdge',
      description: 'A song that crossed the tier.',
      fields: (t) => ({
        crossedAt: t.field({
          type: 'Date',
          nullable: true,
          description: 'Day the song crossed the tier.',
          resolve: (edge) => (edge as TierEdge<SongShape>).crossedAt,
        }),
      }),
    },
  ),
}));

interface TierEdge<T> extends Edge<T> {
  readonly crossedAt: string | null;
}
