import { endpoints, MAX_CHART_SIZE } from '../upstream/endpoints.js';
import { builder } from './builder.js';
import type { GatewayContext } from './context.js';
import { ChartTrendEnum } from './enums.js';
import {
  ASSUMED_LIST_SIZES,
  type FieldReads,
  type KeyLevels,
  type ObjectReads,
  READS_NOTHING,
  type SlicedSize,
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
import { keyFields, recordReader } from './record-fields.js';
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
 * list has them, read once per request whoever needs it. The cost directives
 * cannot say "once per request", and weigh the chart list nowhere.
 */
const CHART_SUMMARY_LEVELS: ObjectReads = {
  levels: [
    { holds: 'position' },
    { holds: 'listed', loadedBy: endpoints.charts, oncePerRequest: true },
  ],
  directivesAssume: 'listed',
};
const CHART_SUMMARY_KEYS = {
  name: 'position',
  territory: 'position',
  latestWeek: 'listed',
  totalEntries: 'listed',
} as const satisfies KeyLevels<ChartSummaryShape>;
const chartsReads = {
  read: endpoints.charts,
  size: ASSUMED_LIST_SIZES.charts,
  knows: 'listed',
} satisfies FieldReads;
/** `chart(limit:)` entries: all of them (the chart's length is at most MAX_CHART_SIZE) by default. */
const CHART_ENTRIES = {
  slicedBy: 'limit',
  assumedSize: MAX_CHART_SIZE,
  max: MAX_CHART_SIZE,
} as const satisfies SlicedSize;
const chartReads = {
  read: endpoints.chart,
  childLists: { entries: CHART_ENTRIES },
} satisfies FieldReads;

/** latestWeek and totalEntries come from the chart list, read only when one of them is selected. */
async function chartListing<K extends keyof ChartSummaryShape>(
  chart: ChartSummaryShape,
  key: K,
  context: GatewayContext,
): Promise<ChartSummaryShape[K]> {
  const known = chart[key];
  if (known !== undefined) return known;
  const { items: charts } = await context.loader.load(chartsReads.read());
  const listed = charts.find(
    (c) => c.chartName === chart.name && c.chartTerritory === chart.territory,
  );
  // Only the listed keys can be unknown: name and territory are what every parent gives.
  return (listed?.[key as 'latestWeek' | 'totalEntries'] ?? null) as ChartSummaryShape[K];
}

const chartSummary = recordReader<ChartSummaryShape, ChartSummaryShape>(
  CHART_SUMMARY_KEYS,
  chartListing,
);

ChartSummaryRef.implement({
  description: 'A weekly chart that the upstream publishes.',
  upstream: CHART_SUMMARY_LEVELS,
  fields: (t) => {
    const held = keyFields(t, chartSummary);
    return {
      name: t.exposeString('name', {
        description: 'Chart identifier, e.g. `official_afrobeats_chart`.',
      }),
      territory: t.exposeString('territory', { description: 'Territory code, e.g. `UK` or `NG`.' }),
      latestWeek: held('latestWeek', 'Date', 'Week of the latest edition.'),
      totalEntries: held('totalEntries', 'Int', 'Number of entries in the latest edition.'),
    };
  },
});

ArtistChartPositionRef.implement({
  description: "An artist's current place on one chart.",
  fields: (t) => ({
    chart: t.field({
      type: ChartSummaryRef,
      description: 'The chart.',
      upstream: { knows: 'position' },
      resolve: (p) => p.chart,
    }),
    week: t.field({
      type: 'Date',
      nullable: true,
      description: 'Week of the chart edition.',
      upstream: READS_NOTHING,
      resolve: (p) => upstreamField(p.record, 'chartWeek'),
    }),
    position: t.int({
      description: 'Current position, from 1.',
      upstream: READS_NOTHING,
      resolve: (p) => requiredField(p.record, 'position'),
    }),
    peakPosition: t.int({
      nullable: true,
      description: 'Best position reached.',
      upstream: READS_NOTHING,
      resolve: (p) => upstreamField(p.record, 'peakPosition'),
    }),
    weeksOnChart: t.int({
      nullable: true,
      description: 'Weeks spent on the chart.',
      upstream: READS_NOTHING,
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
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('total'),
    }),
    entries: t.field({
      type: [ChartEntryRef],
      description:
        'Entries by position; entries the upstream sent unreadable are left out and listed in `extensions.warnings`.',
      // As many as `chart(limit:)` asked for (its `childLists`).
      upstream: READS_NOTHING,
      resolve: (chart, _, c, info) => listItems(chart.entries, c, info) ?? [],
    }),
  }),
});

ChartEntryRef.implement({
  description: 'A song at its position on a chart.',
  fields: (t) => ({
    position: t.int({
      description: 'Position this week, from 1.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('position'),
    }),
    songTitle: t.string({
      description: 'Title as the chart prints it.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('songTitle'),
    }),
    artistName: t.string({
      description: 'Artist as the chart prints it.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('artistName'),
    }),
    peakPosition: t.int({
      description: 'Best position reached.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('peakPosition'),
    }),
    weeksOnChart: t.int({
      description: 'Weeks spent on the chart.',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('weeksOnChart'),
    }),
    trend: t.field({
      type: ChartTrendEnum,
      description: "Movement since last week's chart.",
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('trend'),
    }),
    delta: t.int({
      description: 'Places gained since last week (negative when down).',
      upstream: READS_NOTHING,
      resolve: fromRecordRequired('delta'),
    }),
    previousPosition: t.int({
      nullable: true,
      description: 'Position last week; null for a NEW entry.',
      upstream: READS_NOTHING,
      resolve: fromRecord('prevRank'),
    }),
    song: t.field({
      type: SongRef,
      nullable: true,
      description:
        'The song, found by title and artist name (one search per entry, only when selected); null when no song matches.',
      // The search `findSong` makes.
      upstream: { read: endpoints.searchSongs, knows: 'summary' },
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
    upstream: chartsReads,
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
    upstream: chartReads,
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
      return Object.assign({}, chart, {
        entries: { items: chart.entries.items.slice(0, limit), dropped: chart.entries.dropped },
      });
    },
  }),
}));
