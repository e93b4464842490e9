import { useState } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import type { ArtistPageQuery } from '../../../generated/graphql';
import { formatCount, formatDay, formatExact, formatShortDay } from '../format';

type Snapshot = NonNullable<NonNullable<ArtistPageQuery['artist']>['history']>[number];

const SERIES = {
  dailyStreams: { label: 'Daily streams', colour: '#1ed760' },
  monthlyListeners: { label: 'Monthly listeners', colour: '#4da3ff' },
} as const;
type Series = keyof typeof SERIES;

/** The last 90 days as an area chart, daily streams or monthly listeners. */
export function StreamHistoryChart({ history }: { readonly history: readonly Snapshot[] }) {
  const [series, setSeries] = useState<Series>('dailyStreams');
  const { label, colour } = SERIES[series];
  return (
    <div className="history" data-testid="stream-history">
      <div className="segmented" role="tablist" aria-label="Series">
        {(Object.keys(SERIES) as Series[]).map((key) => (
          <button
            key={key}
            type="button"
            role="tab"
            aria-selected={key === series}
            className={key === series ? 'active' : ''}
            onClick={() => setSeries(key)}
          >
            {SERIES[key].label}
          </button>
        ))}
      </div>
      <ResponsiveContainer width="100%" height={260}>
        <AreaChart data={[...history]} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <defs>
            <linearGradient id={`fill-${series}`} x1="0" y1="0" x2="0" y2="1">
              <stop offset="0%" stopColor={colour} stopOpacity={0.45} />
              <stop offset="100%" stopColor={colour} stopOpacity={0.02} />
            </linearGradient>
          </defs>
          <CartesianGrid stroke="#2a2a2a" vertical={false} />
          <XAxis
            dataKey="date"
            tickFormatter={formatShortDay}
            stroke="#8a8a8a"
            tick={{ fontSize: 12 }}
            minTickGap={40}
          />
          <YAxis
            tickFormatter={(value: number) => formatCount(value)}
            stroke="#8a8a8a"
            tick={{ fontSize: 12 }}
            width={56}
            domain={['auto', 'auto']}
          />
          <Tooltip
            contentStyle={{ background: '#1f1f1f', border: '1px solid #333', borderRadius: 8 }}
            labelFormatter={(date) => formatDay(String(date))}
            formatter={(value) => [formatExact(Number(value)), label]}
          />
          <Area
            type="monotone"
            dataKey={series}
            stroke={colour}
            strokeWidth={2}
            fill={`url(#fill-${series})`}
            isAnimationActive={false}
            connectNulls
          />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
