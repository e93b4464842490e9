import { MAX_CHART_SIZE, endpoints } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import { ChartTrendEnum } from './enums.js';
import { limitArg, slugArg } from './inputs.js';
import { ArtistChartPositionRef, ChartEntryRef, ChartRef, ChartSummaryRef, type ChartSummaryShape, SongRef } from './object-refs.js';
import { findSong, songFromSummary } from './refs.js';
import type { GatewayContext } from './context.js';

/** latestWeek and totalEntries come from the chart list, read only when one of them is selected. */
async function chartListing<K extends 'latestWeek' | 'totalEntries'>(
  chart: ChartSummaryShape,
  field: K,
  context: GatewayContext,
): Promise<number | string | null> {
  const known = chart[field];
  if (known !== undefined) return known;
  const charts = await context.loader.load(endpoints.charts());
  const listed = charts.find((c) => c.chartName === chart.name && c.chartTerritory === chart.territory);
  return listed?.[field] ?? null;
}

ChartSummaryRef.implement({
  description: 'A weekly chart that the upstream publishes.',
  fields: (t) => ({
    name: t.exposeString('name', { description: 'Chart identifier, e.g. `official_afrobeats_chart`.' }),
    territory: t.exposeString('territory', { description: 'Territory code, e.g. `UK` or `NG`.' }),
    latestWeek: t.field({
      type: 'Date',
      nullable: true,
      description: 'Week of the latest edition.',
      resolve: async (chart, _, c) => (await chartListing(chart, 'latestWeek', c)) as string | null,
    }),
    totalEntries: t.int({
      nullable: true,
      description: 'Number of entries in the latest edition.',
      resolve: async (chart, _, c) => (await chartListing(chart, 'totalEntries', c)) as number | null,
    }),
  }),
});

ArtistChartPositionRef.implement({
  description: "An artist's current place on one chart.",
  fields: (t) => ({
    chart: t.field({ type: ChartSummaryRef, description: 'The chart.', resolve: (p) => p.chart }),
    week: t.expose('week', { type: 'Date', nullable: true, description: 'Week of the chart edition.' }),
    position: t.exposeInt('position', { description: 'Current position, from 1.' }),
    peakPosition: t.exposeInt('peakPosition', { nullable: true, description: 'Best position reached.' }),
    weeksOnChart: t.exposeInt('weeksOnChart', { nullable: true, description: 'Weeks spent on the chart.' }),
  }),
});

ChartRef.implement({
  description: 'The latest edition of a weekly chart.',
  fields: (t) => ({
    name: t.exposeString('chartName', { description: 'Chart identifier.' }),
    territory: t.exposeString('chartTerritory', { description: 'Territory code.' }),
    week: t.expose('chartWeek', { type: 'Date', description: 'Week of this edition.' }),
    totalEntries: t.exposeInt('total', { description: 'Entries in the whole chart, whatever `limit` was.' }),
    entries: t.field({ type: [ChartEntryRef], description: 'Entries by position.', resolve: (chart) => chart.entries }),
  }),
});

ChartEntryRef.implement({
  description: 'A song at its position on a chart.',
  fields: (t) => ({
    position: t.exposeInt('position', { description: 'Position this week, from 1.' }),
    songTitle: t.exposeString('songTitle', { description: 'Title as the chart prints it.' }),
    artistName: t.exposeString('artistName', { description: 'Artist as the chart prints it.' }),
    peakPosition: t.exposeInt('peakPosition', { description: 'Best position reached.' }),
    weeksOnChart: t.exposeInt('weeksOnChart', { description: 'Weeks spent on the chart.' }),
    trend: t.expose('trend', { type: ChartTrendEnum, description: "Movement since last week's chart." }),
    delta: t.exposeInt('delta', { description: 'Places gained since last week (negative when down).' }),
    previousPosition: t.exposeInt('prevRank', { nullable: true, description: 'Position last week; null for a NEW entry.' }),
    song: t.field({
      type: SongRef,
      nullable: true,
      description: 'The song, found by title and artist name (one search per entry, only when selected); null when no song matches.',
      resolve: async (entry, _, c) => {
        const summary = await findSong({ title: entry.songTitle, artistName: entry.artistName, songId: null }, c);
        return summary === null ? null : songFromSummary(summary);
      },
    }),
  }),
});

builder.queryFields((t) => ({
  charts: t.field({
    type: [ChartSummaryRef],
    description: 'Every chart the upstream publishes, with its latest week.',
    resolve: async (_, __, c) =>
      (await c.loader.load(endpoints.charts())).map((chart) => ({
        name: chart.chartName,
        territory: chart.chartTerritory,
        latestWeek: chart.latestWeek,
        totalEntries: chart.totalEntries,
      })),
  }),
  chart: t.field({
    type: ChartRef,
    nullable: true,
    description: 'The latest edition of a chart; null with a NOT_FOUND error when there is no such chart.',
    args: {
      name: t.arg.string({ required: true, description: 'Chart identifier, e.g. `official_afrobeats_chart` (see `charts`).' }),
      territory: t.arg.string({ required: true, description: 'Territory code, e.g. `UK`.' }),
      limit: t.arg.int({ description: `Number of entries, 0 to ${MAX_CHART_SIZE}; default all.` }),
    },
    resolve: async (_, args, c) => {
      const limit = limitArg(args.limit, MAX_CHART_SIZE, MAX_CHART_SIZE);
      const chart = await c.loader.load(endpoints.chart(slugArg(args.name, 'name'), slugArg(args.territory, 'territory')));
      return { ...chart, entries: chart.entries.slice(0, limit) };
    },
  }),
}));
