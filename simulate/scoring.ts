/**
 * How one view's answer counts in its day's row, the same whichever harness
 * sent it (in process, or a deployment of separate processes over HTTP):
 * views in full, refusals (of a page once answered in full, without
 * `resetsAt`), other errors, and how old the data shown to the run's 100
 * most-viewed artists was.
 */

import { formatDay, utcDayOf } from '../src/simulator/dates.js';
import type { Simulator, SimulatorData } from '../src/simulator/index.js';
import { DAY_MS } from '../src/time.js';
import { REFRESHED_HEAD } from './clairvoyant.js';
import { type Answer, type DayRow, outcomeOf } from './measures.js';
import { pageOf, type View } from './traffic.js';

const HOUR_MS = 3_600_000;

/**
 * The 100 most-viewed artists (REFRESHED_HEAD of them) whose views must
 * never be more than one refresh old: those of the run through this day, as
 * an operator would name them, and, for comparison, those of this day alone
 * (artists of the long tail that happen to be viewed a lot on one day).
 * Each with its rank (1 for the most viewed), which a stale view's line names.
 */
export interface HeadSets {
  readonly run: ReadonlyMap<string, number>;
  readonly day: ReadonlyMap<string, number>;
}

/** What the scoring reads of the upstream: every artist's total after each data day it published. */
export type PublishedTotals = Pick<SimulatorData, 'totalsOf'>;

export class Scoring {
  /** Pages answered in full so far (any day). */
  readonly #answered = new Set<string>();
  /** Artist page views of the run so far, by slug: who the most-viewed artists are. */
  readonly #viewsSoFar = new Map<string, number>();

  /** `refreshHourUtc`: the upstream publishes a new data day every day at this UTC hour. */
  constructor(
    private readonly upstream: PublishedTotals,
    private readonly refreshHourUtc: number,
  ) {}

  /** The day's views are known: who its most-viewed artists are, and the run's through it. */
  headOf(views: readonly View[]): HeadSets {
    for (const view of views)
      if (view.slug !== undefined)
        this.#viewsSoFar.set(view.slug, (this.#viewsSoFar.get(view.slug) ?? 0) + 1);
    return { run: mostViewed(this.#viewsSoFar), day: mostViewed(countsOf(views)) };
  }

  /**
   * One view's answer into its day's row. `askedAt` is the calendar time the view was sent: its
   * data's age is counted from what the upstream had published then, not from when the answer came
   * back (a refresh published while the view was in flight is not one it could have shown).
   */
  record(view: View, answer: Answer, row: DayRow, head: HeadSets, askedAt: number): void {
    const page = pageOf(view);
    const outcome = outcomeOf(answer);
    row.views += 1;
    if (outcome.full) {
      row.full += 1;
      if (outcome.fromOlderGeneration) row.fullFromOlder += 1;
    }
    if (outcome.refused) {
      row.refused += 1;
      if (this.#answered.has(page)) row.refusedOnceAnswered += 1;
      if (outcome.refusedWithoutResetsAt) row.refusedWithoutResetsAt += 1;
    }
    if (outcome.otherErrors.length > 0) {
      row.otherErrors += 1;
      for (const code of new Set(outcome.otherErrors))
        row.otherCodes.set(code, (row.otherCodes.get(code) ?? 0) + 1);
    }
    if (outcome.full) this.#answered.add(page);
    if (view.slug === undefined) return;
    const twoBehind = (outcome.generationsBehind ?? 0) >= 2;
    if (head.day.has(view.slug) && twoBehind) row.dayHeadStale += 1;
    const rank = head.run.get(view.slug);
    if (rank === undefined) return;
    if (outcome.generationsBehind !== undefined)
      row.headStaleByReport = (row.headStaleByReport ?? 0) + (twoBehind ? 1 : 0);
    const age = this.#dataAge(view.slug, answer, askedAt);
    const twoBehindByData = age !== undefined && age.days >= 2;
    if (twoBehindByData) row.headStaleByData += 1;
    // Must never happen: when it does, what the answer said of it is what tells why.
    if (twoBehind || twoBehindByData)
      console.error(
        `day ${row.day}: a view of ${view.slug} (rank ${rank} of the run) asked at ` +
          `${new Date(askedAt).toISOString()} was two refreshes old: ` +
          JSON.stringify({
            generationsBehind: outcome.generationsBehind,
            data: age,
            freshness: answer.body.extensions?.freshness,
            stale: answer.body.extensions?.stale,
          }),
      );
  }

  /**
   * How many data days the artist's `totalStreams` in the answer (partial or not) is behind what
   * the upstream had published at `askedAt`; undefined when the answer shows no total the upstream
   * ever published for the artist.
   */
  #dataAge(
    slug: string,
    answer: Answer,
    askedAt: number,
  ): { shown: string; published: string; days: number } | undefined {
    const artist = answer.body.data?.artist as { totalStreams?: unknown } | null | undefined;
    const totals = this.upstream.totalsOf(slug);
    if (typeof artist?.totalStreams !== 'number' || totals === null) return undefined;
    const shown = totals.findLast((entry) => entry.totalStreams === artist.totalStreams);
    if (shown === undefined) return undefined;
    const published = this.#publishedAt(askedAt);
    const days = Math.round((Date.parse(published) - Date.parse(shown.dataDate)) / DAY_MS);
    return { shown: shown.dataDate, published, days };
  }

  /**
   * The data day the upstream serves at `at`: the previous UTC day until the refresh hour. Reckoned
   * from the calendar, as the simulator's own rule, not read from its data: the simulator refreshes
   * on the first request after the hour, so its data date lags until someone asks, while any
   * request at `at` would have been answered with the new day.
   */
  #publishedAt(at: number): string {
    return formatDay(utcDayOf(new Date(at - this.refreshHourUtc * HOUR_MS)));
  }
}

/** The upstream's calls within the simulated day [dayStart, dayEnd): into the row. */
export function countCalls(simulator: Simulator, dayStart: number, row: DayRow): void {
  for (const call of simulator.calls) {
    if (call.at < dayStart || call.at >= dayStart + DAY_MS) continue;
    row.calls += 1;
    if (call.status === 429) row.status429 += 1;
  }
}

/** One view's request over HTTP, as a browser would send it; a failed request is an answer too. */
export async function post(
  url: string,
  request: { query: string; variables?: Record<string, unknown> },
): Promise<Answer> {
  try {
    const response = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: JSON.stringify(request),
    });
    const text = await response.text();
    try {
      return { status: response.status, body: JSON.parse(text) as Answer['body'] };
    } catch {
      return { status: response.status, body: {} };
    }
  } catch (error) {
    return {
      status: 0,
      body: { errors: [{ message: String(error), extensions: { code: 'FETCH_FAILED' } }] },
    };
  }
}

function countsOf(views: readonly View[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const view of views)
    if (view.slug !== undefined) counts.set(view.slug, (counts.get(view.slug) ?? 0) + 1);
  return counts;
}

/** The REFRESHED_HEAD most-viewed artists, each with its rank from 1. */
function mostViewed(counts: ReadonlyMap<string, number>): Map<string, number> {
  return new Map(
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, REFRESHED_HEAD)
      .map(([slug], i) => [slug, i + 1]),
  );
}

/** The day's calls by purpose from a replica's `/metrics` text (`gateway_upstream_budget_spent_by_purpose`). */
export function byPurposeOf(metrics: string): DayRow['byPurpose'] {
  const value = (purpose: string) =>
    Number(
      new RegExp(
        `^gateway_upstream_budget_spent_by_purpose\\{purpose="${purpose}"\\} (\\d+)`,
        'm',
      ).exec(metrics)?.[1] ?? Number.NaN,
    );
  const figures = {
    poll: value('poll'),
    refresh: value('refresh'),
    firstTouch: value('first-touch'),
  };
  return Object.values(figures).some(Number.isNaN) ? null : figures;
}
