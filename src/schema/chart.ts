import { endpoints, MAX_CHART_SIZE } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { ChartTrendEnum } from './enums.js';
import {
  ASSUMED_LIST_SIZES,
  clamp,
  type FieldReads,
  type ObjectReads,
  READS_NOTHING,
} from './field-reads.js';
import { limitArg, slugArg, territoryArg } from './inputs.js';
import {
  ArtistChartPositionRef,
  ChartEntryRef,
  ChartRef,
  ChartSummaryRef,
  type ChartSummaryShape,
  SongRef,
} from './object-refs.js';
import { findSong, songFromSummary } from './refs.js';
import {
  fromRecord,
  fromRecordRequired,
  listItems,
  requiredField,
  upstreamField,
} from './upstream-fields.js';

/**
 * A chart from an artist's positions holds no week nor entry count: the chart
 * list has them, read once per request whoever needs it.
 */
const CHART_SUMMARY_LEVELS: ObjectReads = {
  levels: [
    { holds: 'position' },
    { holds: 'listed', loadedBy: endpoints.charts, oncePerRequest: true },
  ],
};
const chartsReads = {
  read: endpoints.charts,
  size: ASSUMED_LIST_SIZES.charts,
  knows: 'listed',
} satisfies FieldReads;
const chartReads = {
  read: endpoints.chart,
  childLists: (args) => ({ entries: clamp(args.limit, MAX_CHART_SIZE, MAX_CHART_SIZE) }),
} satisfies FieldReads;

/** latestWeek and totalEntries come from the chart list, read only when one of them is selected. */
async function chartListing<K extends 'latestWeek' | 'totalEntries'>(
  chart: ChartSummaryShape,
  field: K,
  context: GatewayContext,
): Promise<number | string | null> {
  const known = chart[field];
  if (known !== undefined) return known;
  const { items: charts } = await context.loader.load(chartsReads.read());
  const listed = charts.find(
    (c) => c.chartName === chart.name && c.chartTerritory === chart.territory,
  );
  return listed?.[field] ?? null;
}

ChartSummaryRef.implement({
  description: 'A weekly chart that the upstream publishes.',
  extensions: { upstream: CHART_SUMMARY_LEVELS },
  fields: (t) => ({
    name: t.exposeString('name', {
      description: 'Chart identifier, e.g. `official_afrobeats_chart`.',
    }),
    territory: t.exposeString('territory', { description: 'Territory code, e.g. `UK` or `NG`.' }),
    latestWeek: t.field({
      type: 'Date',
      nullable: true,
      description: 'Week of the latest edition.',
      extensions: { upstream: { needs: 'listed' } },
      resolve: async (chart, _, c) => (await chartListing(chart, 'latestWeek', c)) as string | null,
    }),
    totalEntries: t.int({
      nullable: true,
      description: 'Number of entries in the latest edition.',
      extensions: { upstream: { needs: 'listed' } },
      resolve: async (chart, _, c) =>
        (await chartListing(chart, 'totalEntries', c)) as number | null,
    }),
  }),
});

ArtistChartPositionRef.implement({
  description: "An artist's current place on one chart.",
  fields: (t) => ({
    chart: t.field({
      type: ChartSummaryRef,
      description: 'The chart.',
      extensions: { upstream: { knows: 'position' } },
      resolve: (p) => p.chart,
    }),
    week: t.field({
      type: 'Date',
      nullable: true,
      description: 'Week of the chart edition.',
      extensions: { upstream: READS_NOTHING },
      resolve: (p) => upstreamField(p.record, 'chartWeek'),
    }),
    position: t.int({
      description: 'Current position, from 1.',
      extensions: { upstream: READS_NOTHING },
      resolve: (p) => requiredField(p.record, 'position'),
    }),
    peakPosition: t.int({
      nullable: true,
      description: 'Best position reached.',
      extensions: { upstream: READS_NOTHING },
      resolve: (p) => upstreamField(p.record, 'peakPosition'),
    }),
    weeksOnChart: t.int({
      nullable: true,
      description: 'Weeks spent on the chart.',
      extensions: { upstream: READS_NOTHING },
      resolve: (p) => upstreamField(p.record, 'weeksOnChart'),
    }),
  }),
});

ChartRef.implement({
  description: 'The latest edition of a weekly chart.',
  fields: (t) => ({
    name: t.exposeString('chartName', { description: 'Chart identifier.' }),
    territory: t.exposeString('chartTerritory', { description: 'Territory code.' }),
    week: t.expose('chartWeek', { type: 'Date', description: 'Week of this edition.' }),
    totalEntries: t.int({
      description: 'Entries in the whole chart, whatever `limit` was.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('total'),
    }),
    entries: t.field({
      type: [ChartEntryRef],
      description:
        'Entries by position; entries the upstream sent unreadable are left out and listed in `extensions.warnings`.',
      // As many as `chart(limit:)` asked for (its `childLists`).
      extensions: { upstream: READS_NOTHING },
      resolve: (chart, _, c, info) => listItems(chart.entries, c, info) ?? [],
    }),
  }),
});

ChartEntryRef.implement({
  description: 'A song at its position on a chart.',
  fields: (t) => ({
    position: t.int({
      description: 'Position this week, from 1.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('position'),
    }),
    songTitle: t.string({
      description: 'Title as the chart prints it.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('songTitle'),
    }),
    artistName: t.string({
      description: 'Artist as the chart prints it.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('artistName'),
    }),
    peakPosition: t.int({
      description: 'Best position reached.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('peakPosition'),
    }),
    weeksOnChart: t.int({
      description: 'Weeks spent on the chart.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('weeksOnChart'),
    }),
    trend: t.field({
      type: ChartTrendEnum,
      description: "Movement since last week's chart.",
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('trend'),
    }),
    delta: t.int({
      description: 'Places gained since last week (negative when down).',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecordRequired('delta'),
    }),
    previousPosition: t.int({
      nullable: true,
      description: 'Position last week; null for a NEW entry.',
      extensions: { upstream: READS_NOTHING },
      resolve: fromRecord('prevRank'),
    }),
    song: t.field({
      type: SongRef,
      nullable: true,
      description:
        'The song, found by title and artist name (one search per entry, only when selected); null when no song matches.',
      // The search `findSong` makes.
      extensions: { upstream: { read: endpoints.searchSongs, knows: 'summary' } },
      resolve: async (entry, _, c) => {
        const lookup = {
          title: requiredField(entry, 'songTitle'),
          artistName: requiredField(entry, 'artistName'),
          songId: null,
        };
        const summary = await findSong(lookup, c);
        return summary === null ? null : songFromSummary(summary);
      },
    }),
  }),
});

builder.queryFields((t) => ({
  charts: t.field({
    type: [ChartSummaryRef],
    nullable: true,
    description: 'Every chart the upstream publishes, with its latest week.',
    extensions: { upstream: chartsReads },
    resolve: async (_, __, c, info) =>
      listItems(await c.loader.load(chartsReads.read()), c, info)?.map((chart) => ({
        name: chart.chartName,
        territory: chart.chartTerritory,
        latestWeek: upstreamField(chart, 'latestWeek'),
        totalEntries: upstreamField(chart, 'totalEntries'),
      })) ?? null,
  }),
  chart: t.field({
    type: ChartRef,
    nullable: true,
    description:
      'The latest edition of a chart; null with a NOT_FOUND error when there is no such chart.',
    extensions: { upstream: chartReads },
    args: {
      name: t.arg.string({
        required: true,
        description: 'Chart identifier, e.g. `official_afrobeats_chart` (see `charts`).',
      }),
      territory: t.arg.string({ required: true, description: 'Territory code, e.g. `UK`.' }),
      limit: t.arg.int({ description: `Number of entries, 0 to ${MAX_CHART_SIZE}; default all.` }),
    },
    resolve: async (_, args, c) => {
      const limit = limitArg(args.limit, MAX_CHART_SIZE, MAX_CHART_SIZE);
      const chart = await c.loader.load(
        chartReads.read(slugArg(args.name, 'name'), territoryArg(args.territory)),
      );
      return {
        ...chart,
        entries: { items: chart.entries.items.slice(0, limit), dropped: chart.entries.dropped },
      };
    },
  }),
}));
