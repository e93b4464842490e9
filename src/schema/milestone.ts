import { endpoints } from '../upstream/endpoints.js';
import type { TierArtistRecord, TierSongRecord } from '../upstream/records.js';
import { builder } from './builder.js';
import { type Edge, pagedConnection } from './connections.js';
import { ArtistTierEnum, SongTierEnum } from './enums.js';
import { type FieldReads, READS_NOTHING } from './field-reads.js';
import { ArtistRef, MilestoneRef, SongRef } from './object-refs.js';
import {
  type ArtistShape,
  artistFromSummary,
  artistRef,
  type SongShape,
  songFromLookup,
  songFromSummary,
} from './refs.js';
import {
  fromRecord,
  fromRecordRequired,
  reportDropped,
  requiredField,
  upstreamField,
  upstreamList,
} from './upstream-fields.js';

const STREAMS_SUFFIX = '_streams';

const recentMilestonesReads = {
  pages: endpoints.recentMilestonesPage,
  connection: 'record',
} satisfies FieldReads;
const artistsByTierReads = {
  pages: (page: number, tier: string, isAfrobeats: boolean | null | undefined) =>
    endpoints.artistsByTierPage(tier, page, isAfrobeats),
  connection: 'summary',
} satisfies FieldReads;
const songsByTierReads = {
  pages: (page: number, tier: string) => endpoints.songsByTierPage(tier, page),
  connection: 'summary',
} satisfies FieldReads;

MilestoneRef.implement({
  description: 'The day an artist or one of their songs crossed a stream threshold on a platform.',
  fields: (t) => ({
    id: t.exposeID('id', {
      description:
        'The upstream milestone id (compare it to poll for new milestones). When the upstream sends none, an id ' +
        'derived from the artist, song, metric, threshold and day (those the upstream sent), prefixed `derived:`.',
    }),
    // Nullable (contract v3): recent milestones always carry metric and isAfrobeats (a record
    // without them is left out of its page), but a timeline record promises only threshold and
    // crossedAt. Absent is null; present but unreadable is still UPSTREAM_INVALID_RESPONSE.
    metric: t.string({
      nullable: true,
      description:
        'What was counted, `<platform>_streams`, e.g. `spotify_streams`. Null when the upstream did not say ' +
        "(an artist's timeline promises only the threshold and the day).",
      upstream: READS_NOTHING,
      resolve: fromRecord('metric'),
    }),
    platform: t.string({
      nullable: true,
      description:
        'The platform, i.e. the metric without `_streams`, e.g. `spotify`. Null when the metric is.',
      upstream: READS_NOTHING,
      resolve: (m) => {
        const metric = upstreamField(m, 'metric');
        if (metric === null) return null;
        return metric.endsWith(STREAMS_SUFFIX) ? metric.slice(0, -STREAMS_SUFFIX.length) : metric;
      },
    }),
    threshold: t.field({
      type: 'SafeInt',
      description: 'The threshold crossed, e.g. 1000000000.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('threshold'),
    }),
    crossedAt: t.field({
      type: 'Date',
      description: 'Day it was crossed.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('crossedAt'),
    }),
    isAfrobeats: t.boolean({
      nullable: true,
      description:
        "Whether the artist is flagged Afrobeats. Null when the upstream did not say (an artist's timeline may leave it out).",
      upstream: READS_NOTHING,
      resolve: fromRecord('isAfrobeats'),
    }),
    streamValue: t.field({
      type: 'SafeInt',
      nullable: true,
      description: 'Count observed when crossed.',
      upstream: READS_NOTHING,
      resolve: fromRecord('streamValue'),
    }),
    artist: t.field({
      type: ArtistRef,
      description: 'The artist (name, slug and image come with the milestone at no extra cost).',
      upstream: { knows: 'milestone' },
      resolve: (m) => {
        const slug = requiredField(m, 'artistSlug');
        return artistRef(slug, {
          slug,
          ...(m.artistName !== null ? { name: m.artistName } : {}),
          ...(m.artistImageUrl !== null ? { imageUrl: m.artistImageUrl } : {}),
          // Not `!== null`: an unreadable flag is its own field's error here (plain-property-reads.ts).
          ...(typeof m.isAfrobeats === 'boolean' ? { isAfrobeats: m.isAfrobeats } : {}),
        });
      },
    }),
    song: t.field({
      type: SongRef,
      nullable: true,
      description:
        'The song, for a song milestone; null for an artist milestone. Its title comes at no extra cost.',
      upstream: { knows: 'lookup' },
      resolve: (m) =>
        m.songId === null && m.songTitle === null
          ? null
          : songFromLookup({
              title: requiredField(m, 'songTitle'),
              artistName: upstreamField(m, 'artistName'),
              artistSlug: upstreamField(m, 'artistSlug'),
              songId: m.songId,
            }),
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
      nullable: true,
      description:
        'Milestones crossed recently, newest first. Poll it (about hourly) and compare ids to spot new ones.',
      upstream: recentMilestonesReads,
      args: {
        isAfrobeats: t.arg.boolean({
          description: 'Only Afrobeats artists (true) or only others (false).',
        }),
      },
      resolve: (_, args, c, info) =>
        pagedConnection(
          args,
          upstreamList(c, (page) => recentMilestonesReads.pages(page, args.isAfrobeats)),
          (milestone, cursor) => ({ cursor, node: milestone }),
          (dropped) => reportDropped(dropped, c, info),
        ),
    },
    {
      fields: (t) => ({
        totalCount: t.int({
          description: 'Number of milestones (upstream `meta.total`).',
          upstream: READS_NOTHING,
          resolve: (c) => c.totalCount,
        }),
      }),
      ...milestoneConnectionOptions,
    },
    { name: 'MilestoneEdge', description: 'A milestone in a page of milestones.' },
  ),
  artistsByTier: t.connection(
    {
      type: ArtistRef,
      nullable: true,
      description: 'Artists whose all-time streams crossed `tier`, with the day each crossed it.',
      upstream: artistsByTierReads,
      args: {
        tier: t.arg({ type: ArtistTierEnum, required: true, description: 'The stream threshold.' }),
        isAfrobeats: t.arg.boolean({
          description: 'Only Afrobeats artists (true) or only others (false).',
        }),
      },
      resolve: (_, args, c, info) =>
        pagedConnection(
          args,
          upstreamList(c, (page) => artistsByTierReads.pages(page, args.tier, args.isAfrobeats)),
          (record: TierArtistRecord, cursor): TierEdge<ArtistShape> => ({
            cursor,
            node: artistFromSummary(record.artist),
            crossedAt: record.crossedAt,
          }),
          (dropped) => reportDropped(dropped, c, info),
        ),
    },
    {
      name: 'TierArtistConnection',
      description: 'A page of artists that crossed a stream tier.',
      fields: (t) => ({
        totalCount: t.int({
          description: 'Number of artists past the tier (upstream `meta.total`).',
          upstream: READS_NOTHING,
          resolve: (c) => c.totalCount,
        }),
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
          upstream: READS_NOTHING,
          resolve: (edge) => (edge as TierEdge<ArtistShape>).crossedAt,
        }),
      }),
    },
  ),
  songsByTier: t.connection(
    {
      type: SongRef,
      nullable: true,
      description: 'Songs whose all-time streams crossed `tier`, with the day each crossed it.',
      upstream: songsByTierReads,
      args: {
        tier: t.arg({ type: SongTierEnum, required: true, description: 'The stream threshold.' }),
      },
      resolve: (_, args, c, info) =>
        pagedConnection(
          args,
          upstreamList(c, (page) => songsByTierReads.pages(page, args.tier)),
          (record: TierSongRecord, cursor): TierEdge<SongShape> => ({
            cursor,
            node: songFromSummary(record.song),
            crossedAt: record.crossedAt,
          }),
          (dropped) => reportDropped(dropped, c, info),
        ),
    },
    {
      name: 'TierSongConnection',
      description: 'A page of songs that crossed a stream tier.',
      fields: (t) => ({
        totalCount: t.int({
          description: 'Number of songs past the tier (upstream `meta.total`).',
          upstream: READS_NOTHING,
          resolve: (c) => c.totalCount,
        }),
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
          upstream: READS_NOTHING,
          resolve: (edge) => (edge as TierEdge<SongShape>).crossedAt,
        }),
      }),
    },
  ),
}));

interface TierEdge<T> extends Edge<T> {
  readonly crossedAt: string | null;
}
