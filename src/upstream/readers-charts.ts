/** Readers of charts: the list of charts, and a chart's latest edition with its entries by position. */

import { byNumber, upper, withUnreadable } from './readers-common.js';
import { Fields, type Reader, ShapeError } from './reading.js';
import type { ChartEntryRecord, ChartRecord, ChartSummaryRecord, ChartTrend } from './records.js';

const CHART_TRENDS: readonly ChartTrend[] = ['NEW', 'UP', 'DOWN', 'SAME', 'RE'];

const readChartEntry: Reader<ChartEntryRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart entry', at, notes);
  const trend = f.oneOf('trend', CHART_TRENDS, upper, 'required');
  return withUnreadable(
    {
      position: f.integer('position', 'required'),
      songTitle: f.string('songTitle', 'required'),
      artistName: f.string('artistName', 'required'),
      peakPosition: f.integer('peakPosition', 'required'),
      weeksOnChart: f.integer('weeksOnChart', 'required'),
      trend,
      delta: f.integer('delta', 'required'),
      // A NEW entry had no rank last week, whatever the body says.
      prevRank: trend === 'NEW' ? null : f.integer('prevRank'),
    },
    f,
  );
};

export const readChart: Reader<ChartRecord> = (value, notes) => {
  const f = new Fields(value, 'a chart', '', notes);
  const entries = f.list('data', readChartEntry);
  if (entries === null || f.unreadable?.data !== undefined)
    throw new ShapeError('expected "data" to be a list');
  const meta = f.raw('meta');
  const total =
    meta === undefined || meta === null
      ? null
      : new Fields(meta, '"meta"', 'meta', notes).integer('total');
  if (total === null) f.invalid('total', meta, '"meta.total" is missing or unreadable');
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      chartWeek: requiredDay(f, 'chartWeek'),
      total,
      entries: {
        items: [...entries.items].sort(byNumber((entry) => entry.position)),
        dropped: entries.dropped,
      },
    },
    f,
  );
};

function requiredDay(f: Fields, key: string): string {
  const day = f.date(key);
  if (day === null) throw new ShapeError(`expected "${key}" to be a YYYY-MM-DD date that exists`);
  return day;
}

export const readChartSummary: Reader<ChartSummaryRecord> = (value, notes, at = '') => {
  const f = new Fields(value, 'a chart summary', at, notes);
  return withUnreadable(
    {
      chartName: f.identity('chartName'),
      chartTerritory: f.identity('chartTerritory'),
      latestWeek: f.date('latestWeek'),
      totalEntries: f.integer('totalEntries'),
    },
    f,
  );
};
