import type { GraphQLResolveInfo } from 'graphql';
import { endpoints, type RankingFilter, type UpstreamRequest } from '../upstream/endpoints.js';
import type { RankedRecord, RecordList } from '../upstream/records.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { type FieldReads, RANKING_SIZE, READS_NOTHING } from './field-reads.js';
import { countryArg, listLimitArg } from './inputs.js';
import {
  ArtistRef,
  RankedArtistRef,
  type RankedShape,
  RankedSongRef,
  SongRef,
  TrendingArtistRef,
  TrendingSongRef,
} from './object-refs.js';
import { artistFromSummary, songFromSummary } from './refs.js';
import { listItems, upstreamField } from './upstream-fields.js';

RankedArtistRef.implement({
  description: 'An artist at its rank on a leaderboard.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    artist: t.field({
      type: ArtistRef,
      description: 'The artist (summary fields cost nothing extra).',
      upstream: { knows: 'summary' },
      resolve: (r) => r.item,
    }),
  }),
});

RankedSongRef.implement({
  description: 'A song at its rank on a leaderboard.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    song: t.field({
      type: SongRef,
      description: 'The song (summary fields cost nothing extra).',
      upstream: { knows: 'summary' },
      resolve: (r) => r.item,
    }),
  }),
});

TrendingArtistRef.implement({
  description: 'An artist at its rank by momentum.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    momentumScore: t.float({
      nullable: true,
      description: 'Momentum score; higher is hotter. Null when the upstream does not say.',
      upstream: READS_NOTHING,
      resolve: (r) => r.momentumScore,
    }),
    artist: t.field({
      type: ArtistRef,
      description: 'The artist (summary fields cost nothing extra).',
      upstream: { knows: 'summary' },
      resolve: (r) => r.item,
    }),
  }),
});

TrendingSongRef.implement({
  description: 'A song at its rank by momentum.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    momentumScore: t.float({
      nullable: true,
      description: 'Momentum score; higher is hotter. Null when the upstream does not say.',
      upstream: READS_NOTHING,
      resolve: (r) => r.momentumScore,
    }),
    song: t.field({
      type: SongRef,
      description: 'The song (summary fields cost nothing extra).',
      upstream: { knows: 'summary' },
      resolve: (r) => r.item,
    }),
  }),
});

type QueryFieldBuilder = Parameters<Parameters<typeof builder.queryFields>[0]>[0];

function rankingArgs(t: QueryFieldBuilder, subject: 'artists' | 'songs') {
  return {
    limit: t.arg.int({ description: 'Number of entries, 0 to 100; default 20.' }),
    isAfrobeats: t.arg.boolean({
      description: `Only Afrobeats ${subject} (true) or only others (false).`,
    }),
  };
}

function artistRankingArgs(t: QueryFieldBuilder) {
  return Object.assign(rankingArgs(t, 'artists'), {
    country: t.arg.string({ description: 'Only artists from this country (ISO 3166-1 alpha-2).' }),
  });
}

interface RankingArgs {
  readonly limit?: number | null;
  readonly isAfrobeats?: boolean | null;
  readonly country?: string | null;
}

/** A leaderboard or trending list: one read, `limit` entries (field-reads.ts). */
interface RankingReads<Summary> extends FieldReads<RankingArgs> {
  readonly read: (
    filter: RankingFilter,
    limit: number,
  ) => UpstreamRequest<RecordList<RankedRecord<Summary>>>;
  readonly size: typeof RANKING_SIZE;
}

const ranking = <Summary>(read: RankingReads<Summary>['read']): RankingReads<Summary> => ({
  read,
  size: RANKING_SIZE,
});

/**
 * Resolves a leaderboard or trending field through the read it declares.
 * The upstream list is always read at its maximum size and sliced to
 * `limit`, so every limit shares one call.
 */
function resolveRanking<Summary, Shape>(
  reads: RankingReads<Summary>,
  toShape: (summary: Summary) => Shape,
) {
  return async (
    _: unknown,
    args: RankingArgs,
    context: GatewayContext,
    info: GraphQLResolveInfo,
  ): Promise<RankedShape<Shape>[]> => {
    const limit = listLimitArg(args.limit);
    const filter = { isAfrobeats: args.isAfrobeats, country: countryArg(args.country) };
    // Nothing asked for, nothing read.
    if (limit === 0) return [];
    const list = await context.loader.load(reads.read(filter, context.assumptions.rankingLimit));
    // The first `limit` places of the upstream's list, less those it sent unreadable.
    const dropped = list.dropped.filter((d) => d.index < limit);
    const wanted = { items: list.items.slice(0, limit - dropped.length), dropped };
    return (listItems(wanted, context, info) ?? []).map((r) => ({
      rank: r.rank,
      momentumScore: upstreamField(r, 'momentumScore'),
      item: toShape(r.item),
    }));
  };
}

const topArtistsByStreamsReads = ranking(endpoints.topArtistsByStreams);
const topArtistsByListenersReads = ranking(endpoints.topArtistsByListeners);
const topSongsReads = ranking(endpoints.topSongs);
const trendingArtistsReads = ranking(endpoints.trendingArtists);
const trendingSongsReads = ranking(endpoints.trendingSongs);

builder.queryFields((t) => ({
  topArtistsByStreams: t.field({
    type: [RankedArtistRef],
    nullable: true,
    description: 'Artists with the most all-time streams.',
    args: artistRankingArgs(t),
    upstream: topArtistsByStreamsReads,
    resolve: resolveRanking(topArtistsByStreamsReads, artistFromSummary),
  }),
  topArtistsByListeners: t.field({
    type: [RankedArtistRef],
    nullable: true,
    description: 'Artists with the most monthly listeners.',
    args: artistRankingArgs(t),
    upstream: topArtistsByListenersReads,
    resolve: resolveRanking(topArtistsByListenersReads, artistFromSummary),
  }),
  topSongs: t.field({
    type: [RankedSongRef],
    nullable: true,
    description: 'Songs with the most all-time streams.',
    args: rankingArgs(t, 'songs'),
    upstream: topSongsReads,
    resolve: resolveRanking(topSongsReads, songFromSummary),
  }),
  trendingArtists: t.field({
    type: [TrendingArtistRef],
    nullable: true,
    description: 'Artists by momentum score, hottest first.',
    args: artistRankingArgs(t),
    upstream: trendingArtistsReads,
    resolve: resolveRanking(trendingArtistsReads, artistFromSummary),
  }),
  trendingSongs: t.field({
    type: [TrendingSongRef],
    nullable: true,
    description: 'Songs by momentum score, hottest first.',
    args: rankingArgs(t, 'songs'),
    upstream: trendingSongsReads,
    resolve: resolveRanking(trendingSongsReads, songFromSummary),
  }),
}));
