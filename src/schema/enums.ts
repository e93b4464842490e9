/**
 * GraphQL enums and the upstream values they stand for. The GraphQL names
 * are the contract; the values are what `endpoints.ts` sends upstream.
 */
import type { AlbumSortValue, ArtistSortValue } from '../upstream/endpoints.js';
import type { AlbumType, ChartTrend } from '../upstream/records.js';
import { builder } from './builder.js';

export const ArtistSortEnum = builder.enumType('ArtistSort', {
  description: 'Orders for browsing artists.',
  values: {
    NAME: { value: 'name', description: 'By name, A to Z.' },
    TOTAL_STREAMS: {
      value: 'totalStreams',
      description: 'By all-time streams, most first (the upstream default).',
    },
    MONTHLY_LISTENERS: {
      value: 'monthlyListeners',
      description: 'By monthly listeners, most first.',
    },
  } as const satisfies Record<string, { value: ArtistSortValue; description: string }>,
});

export const AlbumSortEnum = builder.enumType('AlbumSort', {
  description: 'Orders for browsing albums.',
  values: {
    TOTAL_STREAMS: { value: 'totalStreams', description: 'By all-time streams, most first.' },
    RELEASE_DATE: { value: 'releaseDate', description: 'By release date, newest first.' },
    DAILY_STREAMS: {
      value: 'dailyStreams',
      description: 'By streams on the latest day, most first.',
    },
  } as const satisfies Record<string, { value: AlbumSortValue; description: string }>,
});

export const AlbumTypeEnum = builder.enumType('AlbumType', {
  description: 'Kind of release.',
  values: {
    ALBUM: { value: 'album', description: 'A full-length album.' },
    SINGLE: { value: 'single', description: 'A single.' },
    EP: { value: 'ep', description: 'An extended play.' },
  } as const satisfies Record<string, { value: AlbumType; description: string }>,
});

export const ArtistTierEnum = builder.enumType('ArtistTier', {
  description: 'All-time stream thresholds tracked for artists.',
  values: {
    T100M: { value: '100m', description: '100 million streams.' },
    T500M: { value: '500m', description: '500 million streams.' },
    T1B: { value: '1b', description: '1 billion streams.' },
    T2B: { value: '2b', description: '2 billion streams.' },
    T5B: { value: '5b', description: '5 billion streams.' },
    T10B: { value: '10b', description: '10 billion streams.' },
    T15B: { value: '15b', description: '15 billion streams.' },
    T20B: { value: '20b', description: '20 billion streams.' },
  } as const,
});

export const SongTierEnum = builder.enumType('SongTier', {
  description: 'All-time stream thresholds tracked for songs.',
  values: {
    T50M: { value: '50m', description: '50 million streams.' },
    T100M: { value: '100m', description: '100 million streams.' },
    T500M: { value: '500m', description: '500 million streams.' },
    T1B: { value: '1b', description: '1 billion streams.' },
    T2B: { value: '2b', description: '2 billion streams.' },
  } as const,
});

export const ChartTrendEnum = builder.enumType('ChartTrend', {
  description: "Movement of a chart entry since last week's chart.",
  values: {
    NEW: { value: 'NEW', description: 'First appearance on the chart.' },
    UP: { value: 'UP', description: 'Moved up since last week.' },
    DOWN: { value: 'DOWN', description: 'Moved down since last week.' },
    SAME: { value: 'SAME', description: 'Same position as last week.' },
    RE: { value: 'RE', description: 'Back on the chart after dropping off.' },
  } as const satisfies Record<string, { value: ChartTrend; description: string }>,
});
