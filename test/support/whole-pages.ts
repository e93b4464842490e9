/**
 * What the whole-requests specs share (issue 30): the plan and client share under which 200
 * concurrent cold artist pages meet a client's paced allowance at noon, the page, and what the
 * answers and the upstream's calls must show, however many processes served the pages.
 */
import { readFileSync } from 'node:fs';
import { expect } from 'vitest';
import { DayShape } from '../../src/economy/day-shape.js';
import { SpendingPlan } from '../../src/economy/spending-plan.js';
import { HOUR_MS } from './calendar.js';
import type { GraphQLResponse } from './stack.js';

export const PLAN = { dailyLimit: 1000, headShare: 0.4, burst: 20 };
export const CLIENT_SHARE = 0.5;

/** The same plan and client share as a replica's environment. */
export const PLAN_ENV: Readonly<Record<string, string>> = {
  UPSTREAM_DAILY_LIMIT: String(PLAN.dailyLimit),
  BUDGET_HEAD_SHARE: String(PLAN.headShare),
  BUDGET_BURST_CALLS: String(PLAN.burst),
  CLIENT_BUDGET_SHARE: String(CLIENT_SHARE),
};

/**
 * The example's artist page, whole: its profile, songs, history and timeline, then (a second
 * wave) each top song's album. Five to eleven calls; estimated at up to twice as many.
 */
export const PAGE = readFileSync('examples/operations/ArtistPage.graphql', 'utf8');

/** The first touches the client may make at `at` (epoch ms) on a new deployment's first day. */
export function clientAllowanceAt(at: number): number {
  const ceiling = new SpendingPlan({
    ...PLAN,
    pollIntervalMs: HOUR_MS,
    clientShare: CLIENT_SHARE,
  }).ceiling(
    'first-touch',
    new Date(at),
    { used: 0, paced: 0, refreshed: 0, polled: 0 },
    false,
    // A new gateway: nothing was asked yesterday.
    DayShape.linear(true),
  );
  return Math.min(ceiling.limit, ceiling.clientLimit ?? Number.POSITIVE_INFINITY);
}

/**
 * The pages of `slugs` (answered in `pages`, in order) spent an allowance of `allowance` calls
 * on whole pages: every call the upstream received (`upstreamPaths`) was for a page that came
 * back whole, the allowance was spent but for less than one page's hold in each of the
 * `processes` that served them, as many pages are whole as the calls spent afford, and every other page was refused with the time it could be served.
 *
 * Per process, because a refused hold waits only for its own process's holds: a process whose
 * holds have all settled refuses its remaining pages while another's holds may still give back
 * what they did not use. What is left is not lost; it stays in the day for later requests.
 */
export function expectWholePages(
  slugs: readonly string[],
  pages: readonly GraphQLResponse[],
  upstreamPaths: readonly string[],
  allowance: number,
  processes = 1,
): void {
  const whole = (page: GraphQLResponse) =>
    page.status === 200 && page.body.errors === undefined && page.body.data?.artist !== null;
  const complete = slugs.filter((_, i) => whole(pages[i] as GraphQLResponse));
  const pageOfCall = upstreamPaths.map((path) => artistOf(path, slugs));
  const callsOf = (slug: string) => pageOfCall.filter((page) => page === slug).length;
  const largestPage = Math.max(...complete.map(callsOf));
  expect(pageOfCall.filter((slug) => !complete.includes(slug as string))).toEqual([]);
  // A hold is at most twice the page it is for (the estimate's bound).
  expect(upstreamPaths.length).toBeGreaterThan(allowance - processes * 2 * largestPage);
  expect(upstreamPaths.length).toBeLessThanOrEqual(allowance);
  expect(complete.length).toBeGreaterThanOrEqual(
    Math.floor(allowance / largestPage) - 2 * processes + 1,
  );
  for (const [i, page] of pages.entries()) {
    if (whole(page)) continue;
    expect(page.body.errors?.[0]?.extensions, slugs[i]).toMatchObject({
      code: 'RATE_LIMITED',
      resetsAt: expect.any(String),
    });
  }
}

/** The artist of the page an upstream call was made for: its slug, or its album's (named after it). */
function artistOf(path: string, slugs: readonly string[]): string | undefined {
  const name =
    /^\/api\/v1\/(?:artists|songs|milestones\/timeline|albums)\/([^/]+)/.exec(path)?.[1] ?? '';
  return slugs
    .filter((slug) => name === slug || name.startsWith(`${slug}-`))
    .sort((a, b) => b.length - a.length)[0];
}
