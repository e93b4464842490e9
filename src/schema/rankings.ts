import { endpoints } from '../upstream/endpoints.js';
import type { RankedArtistRecord, RankedSongRecord } from '../upstream/records.js';
import { builder } from './builder.js';
import { countryArg, listLimitArg } from './inputs.js';
import { ArtistRef, RankedArtistRef, RankedSongRef, SongRef, TrendingArtistRef, TrendingSongRef } from './object-refs.js';
import { artistFromSummary, songFromSummary } from './refs.js';

RankedArtistRef.implement({
  description: 'An artist at its rank on a leaderboard.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    artist: t.field({ type: ArtistRef, description: 'The artist (summary fields cost nothing extra).', resolve: (r) => r.item }),
  }),
});

RankedSongRef.implement({
  description: 'A song at its rank on a leaderboard.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    song: t.field({ type: SongRef, description: 'The song (summary fields cost nothing extra).', resolve: (r) => r.item }),
  }),
});

TrendingArtistRef.implement({
  description: 'An artist at its rank by momentum.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    momentumScore: t.float({ description: 'Momentum score; higher is hotter.', resolve: (r) => r.momentumScore ?? 0 }),
    artist: t.field({ type: ArtistRef, description: 'The artist (summary fields cost nothing extra).', resolve: (r) => r.item }),
  }),
});

TrendingSongRef.implement({
  description: 'A song at its rank by momentum.',
  fields: (t) => ({
    rank: t.exposeInt('rank', { description: 'Rank, from 1.' }),
    momentumScore: t.float({ description: 'Momentum score; higher is hotter.', resolve: (r) => r.momentumScore ?? 0 }),
    song: t.field({ type: SongRef, description: 'The song (summary fields cost nothing extra).', resolve: (r) => r.item }),
  }),
});

const rankedArtists = (records: readonly (RankedArtistRecord & { momentumScore?: number })[], limit: number) =>
  records.slice(0, limit).map((r) => ({ rank: r.rank, momentumScore: r.momentumScore, item: artistFromSummary(r.artist) }));
const rankedSongs = (records: readonly (RankedSongRecord & { momentumScore?: number })[], limit: number) =>
  records.slice(0, limit).map((r) => ({ rank: r.rank, momentumScore: r.momentumScore, item: songFromSummary(r.song) }));

const limitDescription = 'Number of entries, 0 to 100; default 20.';

builder.queryFields((t) => ({
  topArtistsByStreams: t.field({
    type: [RankedArtistRef],
    description: 'Artists with the most all-time streams.',
    args: {
      limit: t.arg.int({ description: limitDescription }),
      isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats artists (true) or only others (false).' }),
      country: t.arg.string({ description: 'Only artists from this country (ISO 3166-1 alpha-2).' }),
    },
    resolve: async (_, args, c) => {
      const limit = listLimitArg(args.limit);
      const filter = { isAfrobeats: args.isAfrobeats, country: countryArg(args.country) };
      return rankedArtists(await c.loader.load(endpoints.topArtistsByStreams(filter)), limit);
    },
  }),
  topArtistsByListeners: t.field({
    type: [RankedArtistRef],
    description: 'Artists with the most monthly listeners.',
    args: {
      limit: t.arg.int({ description: limitDescription }),
      isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats artists (true) or only others (false).' }),
      country: t.arg.string({ description: 'Only artists from this country (ISO 3166-1 alpha-2).' }),
    },
    resolve: async (_, args, c) => {
      const limit = listLimitArg(args.limit);
      const filter = { isAfrobeats: args.isAfrobeats, country: countryArg(args.country) };
      return rankedArtists(await c.loader.load(endpoints.topArtistsByListeners(filter)), limit);
    },
  }),
  topSongs: t.field({
    type: [RankedSongRef],
    description: 'Songs with the most all-time streams.',
    args: {
      limit: t.arg.int({ description: limitDescription }),
      isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats songs (true) or only others (false).' }),
    },
    resolve: async (_, args, c) => {
      const limit = listLimitArg(args.limit);
      return rankedSongs(await c.loader.load(endpoints.topSongs({ isAfrobeats: args.isAfrobeats })), limit);
    },
  }),
  trendingArtists: t.field({
    type: [TrendingArtistRef],
    description: 'Artists by momentum score, hottest first.',
    args: {
      limit: t.arg.int({ description: limitDescription }),
      isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats artists (true) or only others (false).' }),
      country: t.arg.string({ description: 'Only artists from this country (ISO 3166-1 alpha-2).' }),
    },
    resolve: async (_, args, c) => {
      const limit = listLimitArg(args.limit);
      const filter = { isAfrobeats: args.isAfrobeats, country: countryArg(args.country) };
      return rankedArtists(await c.loader.load(endpoints.trendingArtists(filter)), limit);
    },
  }),
  trendingSongs: t.field({
    type: [TrendingSongRef],
    description: 'Songs by momentum score, hottest first.',
    args: {
      limit: t.arg.int({ description: limitDescription }),
      isAfrobeats: t.arg.boolean({ description: 'Only Afrobeats songs (true) or only others (false).' }),
    },
    resolve: async (_, args, c) => {
      const limit = listLimitArg(args.limit);
      return rankedSongs(await c.loader.load(endpoints.trendingSongs({ isAfrobeats: args.isAfrobeats })), limit);
    },
  }),
}));
