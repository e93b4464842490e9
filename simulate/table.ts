/** The printed report: a header with the parameters, one row per simulated day, the totals. */
import type { DayRow } from './measures.js';
import type { SimulationOptions } from './options.js';

const COLUMNS: readonly [string, (row: DayRow) => string][] = [
  ['day', (r) => String(r.day)],
  ['calls', (r) => String(r.calls)],
  [
    'poll/refresh/first',
    (r) =>
      r.byPurpose === null
        ? 'n/a'
        : `${r.byPurpose.poll}/${r.byPurpose.refresh}/${r.byPurpose.firstTouch}`,
  ],
  ['429', (r) => String(r.status429)],
  ['views', (r) => String(r.views)],
  ['in full', (r) => `${r.full} (${percent(r.full, r.views)})`],
  ['of them older gen', (r) => String(r.fullFromOlder)],
  ['refused', (r) => String(r.refused)],
  ['refused once answered', (r) => String(r.refusedOnceAnswered)],
  ['no resetsAt', (r) => String(r.refusedWithoutResetsAt)],
  ['other errors', (r) => String(r.otherErrors)],
  ['top100 ≥2 old (report/data)', (r) => `${r.headStaleByReport ?? 'n/a'}/${r.headStaleByData}`],
  ["day's top100 ≥2 old", (r) => String(r.dayHeadStale)],
  ['clairvoyant in full', (r) => `${r.clairvoyantFull} (${percent(r.clairvoyantFull, r.views)})`],
  ['ratio', (r) => (r.clairvoyantFull === 0 ? 'n/a' : (r.full / r.clairvoyantFull).toFixed(3))],
];

export function header(options: SimulationOptions): string {
  const mix = Object.entries(options.mix)
    .map(([kind, share]) => `${kind} ${Math.round(share * 100)} %`)
    .join(', ');
  return [
    `Capacity planning: ${options.days} simulated days, ${options.artists} artists, ${options.views} views a day (${mix}),`,
    `${options.replicas} replicas on one Redis (${options.mode === 'deployment' ? `separate processes over HTTP, the calendar at ${options.speed}× real time` : 'in one process, the calendar moved view by view'}), upstream limit ${options.limit} calls a day, refresh poll every ${options.pollMinutes} min,`,
    `upstream refresh daily at 0${options.refreshHourUtc}:00 UTC, seed ${options.seed}, traffic shape ${options.shape}${options.mode === 'in-process' ? `, ${options.concurrency} views at once` : ''}.`,
  ].join('\n');
}

export function table(rows: readonly DayRow[]): string {
  const cells = [
    COLUMNS.map(([name]) => name),
    ...rows.map((row) => COLUMNS.map(([, f]) => f(row))),
  ];
  const widths = COLUMNS.map((_, i) => Math.max(...cells.map((line) => (line[i] ?? '').length)));
  const lines = cells.map(
    (line) => `| ${line.map((cell, i) => cell.padStart(widths[i] ?? 0)).join(' | ')} |`,
  );
  lines.splice(1, 0, `|${widths.map((w) => `${'-'.repeat(w + 1)}:`).join('|')}|`);
  const codes = new Map<string, number>();
  for (const row of rows)
    for (const [code, n] of row.otherCodes) codes.set(code, (codes.get(code) ?? 0) + n);
  if (codes.size > 0)
    lines.push(`Other errors: ${[...codes].map(([code, n]) => `${code} ×${n}`).join(', ')}`);
  return lines.join('\n');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
}
