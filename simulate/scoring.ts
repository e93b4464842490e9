/**
 * How one view's answer counts in its day's row, the same whichever harness
 * sent it (in process, or a deployment of separate processes over HTTP):
 * views in full, refusals (of a page once answered in full, without
 * `resetsAt`), other errors, and how old the data shown to the run's 100
 * most-viewed artists was.
 */

import type { Simulator } from '../src/simulator/index.js';
import { DAY_MS } from '../src/time.js';
import { REFRESHED_HEAD } from './clairvoyant.js';
import { type Answer, type DayRow, outcomeOf } from './measures.js';
import { pageOf, type View } from './traffic.js';

/**
 * The 100 most-viewed artists (REFRESHED_HEAD of them) whose views must
 * never be more than one refresh old: those of the run through this day, as
 * an operator would name them, and, for comparison, those of this day alone
 * (artists of the long tail that happen to be viewed a lot on one day).
 */
export interface HeadSets {
  readonly run: ReadonlySet<string>;
  readonly day: ReadonlySet<string>;
}

export class Scoring {
  /** Pages answered in full so far (any day). */
  readonly #answered = new Set<string>();
  /** Artist page views of the run so far, by slug: who the most-viewed artists are. */
  readonly #viewsSoFar = new Map<string, number>();
  /**
   * The upstream's data day the gateway last polled. A view's data age is counted from its value
   * when the view was asked (pass it to `record`), not when its answer came back: a poll that
   * lands while a view is in flight (many are, as processes at 960x) does not make an answer
   * read before it old.
   */
  polledDataDate = '';

  constructor(private readonly simulator: Simulator) {}

  /** The day's views are known: who its most-viewed artists are, and the run's through it. */
  headOf(views: readonly View[]): HeadSets {
    for (const view of views)
      if (view.slug !== undefined)
        this.#viewsSoFar.set(view.slug, (this.#viewsSoFar.get(view.slug) ?? 0) + 1);
    return { run: mostViewed(this.#viewsSoFar), day: mostViewed(countsOf(views)) };
  }

  record(view: View, answer: Answer, row: DayRow, head: HeadSets, polledWhenAsked: string): void {
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
    if (!head.run.has(view.slug)) return;
    if (outcome.generationsBehind !== undefined)
      row.headStaleByReport = (row.headStaleByReport ?? 0) + (twoBehind ? 1 : 0);
    // Must never happen: when it does, what the answer said of it is what tells why.
    if (twoBehind)
      console.error(
        `day ${row.day}: a view of ${view.slug} at ${new Date(view.at).toISOString()} was two refreshes old: ` +
          JSON.stringify({
            freshness: answer.body.extensions?.freshness,
            stale: answer.body.extensions?.stale,
          }),
      );
    if (dataAge(this.simulator, view.slug, answer, polledWhenAsked) >= 2) row.headStaleByData += 1;
  }
}

/** Data days between the upstream's day at the last poll before the view and the day whose total the answer shows; 0 if unknown. */
function dataAge(
  simulator: Simulator,
  slug: string,
  answer: Answer,
  polledDataDate: string,
): number {
  const artist = answer.body.data?.artist as { totalStreams?: unknown } | null | undefined;
  const totals = simulator.data.totalsOf(slug);
  if (typeof artist?.totalStreams !== 'number' || totals === null) return 0;
  const shown = totals.findLast((entry) => entry.totalStreams === artist.totalStreams);
  if (shown === undefined) return 0;
  return Math.round((Date.parse(polledDataDate) - Date.parse(shown.dataDate)) / DAY_MS);
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

function mostViewed(counts: ReadonlyMap<string, number>): Set<string> {
  return new Set(
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, REFRESHED_HEAD)
      .map(([slug]) => slug),
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
