/**
 * How the simulation judges the age of a favourite's data: against what the
 * upstream had published when the view was asked, whether or not the
 * gateway had polled since, partial answers included.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Answer } from '../../simulate/measures.js';
import { emptyRow } from '../../simulate/measures.js';
import { type PublishedTotals, Scoring } from '../../simulate/scoring.js';
import type { View } from '../../simulate/traffic.js';

const REFRESH_HOUR = 3;
const FAVOURITE = 'favourite-artist';
/** The artist's total after each data day the upstream published: the 4th, the 5th, the 6th. */
const TOTALS = [
  { dataDate: '2026-03-04', totalStreams: 1_000 },
  { dataDate: '2026-03-05', totalStreams: 2_000 },
  { dataDate: '2026-03-06', totalStreams: 3_000 },
];
const upstream: PublishedTotals = {
  totalsOf: (slug) => (slug === FAVOURITE ? TOTALS : null),
};
const at = (iso: string) => Date.parse(iso);

function answerShowing(totalStreams: number, partial = false): Answer {
  return {
    status: 200,
    body: {
      data: { artist: { slug: FAVOURITE, totalStreams, history: partial ? null : [] } },
      ...(partial
        ? { errors: [{ message: 'upstream failed', extensions: { code: 'UPSTREAM_ERROR' } }] }
        : {}),
      extensions: { freshness: { generation: 7 }, stale: partial ? ['artist.history'] : undefined },
    },
  };
}

/** Scores one view of the run's most-viewed artist, asked at `askedAt` and answered with `answer`. */
function score(askedAt: number, answer: Answer) {
  const scoring = new Scoring(upstream, REFRESH_HOUR);
  const view: View = { at: askedAt, kind: 'artist', slug: FAVOURITE };
  const head = scoring.headOf([view]);
  const row = emptyRow(3);
  scoring.record(view, answer, row, head, askedAt);
  return row;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the favourites check of npm run simulate', () => {
  it('counts a view asked after the upstream refreshed, before any poll saw it, shown the data of two refreshes before', () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((line: string) => void lines.push(line));
    // From 03:00 on the 6th the upstream serves the 6th's data; at 03:05 no poll has seen it yet,
    // and the gateway answers with the 4th's total, one behind what it knows, two behind the upstream.
    const askedAt = at('2026-03-06T03:05:00Z');
    const row = score(askedAt, answerShowing(1_000));
    expect(row.headStaleByData).toBe(1);
    // The line names the view: when, whom, the artist's rank, and what the answer said of itself.
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(FAVOURITE);
    expect(lines[0]).toContain('rank 1 of the run');
    expect(lines[0]).toContain('2026-03-06T03:05:00.000Z');
    expect(lines[0]).toContain('"freshness":{"generation":7}');
    expect(lines[0]).toContain('"shown":"2026-03-04","published":"2026-03-06","days":2');
  });

  it('counts a partial answer too, by the total it shows', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const row = score(at('2026-03-06T03:20:00Z'), answerShowing(1_000, true));
    expect(row.full).toBe(0);
    expect(row.headStaleByData).toBe(1);
  });

  it('does not count data one refresh behind, nor a refresh published after the view was asked', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // One behind: asked after the refresh to the 6th, shown the 5th.
    expect(score(at('2026-03-06T03:05:00Z'), answerShowing(2_000)).headStaleByData).toBe(0);
    // Asked just before the refresh to the 6th, while the 5th was published: the 4th is one
    // behind, even if the refresh came while the answer was on its way.
    expect(score(at('2026-03-06T02:59:59Z'), answerShowing(1_000)).headStaleByData).toBe(0);
    // Current data.
    expect(score(at('2026-03-06T03:05:00Z'), answerShowing(3_000)).headStaleByData).toBe(0);
    expect(error).not.toHaveBeenCalled();
  });

  it('reckons the published day from the refresh hour of the upstream', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // At 04:00 on the 6th, an upstream refreshing at 05:00 still serves the 5th: the 4th is one behind.
    const laterRefresh = new Scoring(upstream, REFRESH_HOUR + 2);
    const view: View = { at: at('2026-03-06T04:00:00Z'), kind: 'artist', slug: FAVOURITE };
    const row = emptyRow(3);
    laterRefresh.record(view, answerShowing(1_000), row, laterRefresh.headOf([view]), view.at);
    expect(row.headStaleByData).toBe(0);
    expect(score(view.at, answerShowing(1_000)).headStaleByData).toBe(1);
  });
});
