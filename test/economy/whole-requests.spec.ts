/**
 * When the day's allowance cannot cover every request, it is spent on
 * requests answered whole (issue 30): 200 concurrent cold artist pages from
 * one client, against the client's paced allowance at noon. Before, 146
 * calls were spent and no page came back complete.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DayShape } from '../../src/economy/day-shape.js';
import { SpendingPlan } from '../../src/economy/spending-plan.js';
import { HOUR_MS, todayAtUtc } from '../support/calendar.js';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';

const PLAN = { dailyLimit: 1000, headShare: 0.4, burst: 20 };
const CLIENT_SHARE = 0.5;
const NOON = todayAtUtc(12);
/**
 * The example's artist page, whole: its profile, songs, history and timeline, then (a second
 * wave) each top song's album. Five to eight calls; estimated at up to twice as many.
 */
const PAGE = readFileSync('examples/operations/ArtistPage.graphql', 'utf8');

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      dailyLimit: PLAN.dailyLimit,
      budgetPlan: { headShare: PLAN.headShare, burst: PLAN.burst },
      refreshPollMs: HOUR_MS,
      stores: { clientBudgetShare: CLIENT_SHARE },
      // The plan's calendar: noon of today, while timers and the simulator keep real time.
      now: () => new Date(NOON),
    },
  });
});
afterAll(() => stack.close());

it('200 concurrent cold pages: the allowance buys whole pages, and no call is spent on a page refused', async () => {
  const allowance = new SpendingPlan({
    ...PLAN,
    pollIntervalMs: HOUR_MS,
    clientShare: CLIENT_SHARE,
  }).ceiling(
    'first-touch',
    new Date(NOON),
    { used: 0, paced: 0, refreshed: 0, polled: 0 },
    false,
    // A new gateway: nothing was asked yesterday.
    DayShape.linear(true),
  );
  const calls = Math.min(allowance.limit, allowance.clientLimit ?? Number.POSITIVE_INFINITY);
  const slugs = stack.simulator.data
    .allArtists()
    .slice(0, 200)
    .map((artist) => artist.slug);
  const pages = await Promise.all(slugs.map((slug) => jsonQuery(PAGE, { slug })));
  const whole = (page: GraphQLResponse) =>
    page.status === 200 && page.body.errors === undefined && page.body.data?.artist !== null;
  const complete = slugs.filter((_, i) => whole(pages[i] as GraphQLResponse));
  const callsOf = (slug: string) =>
    stack.simulator.calls.filter((call) => artistOf(call.rawPath, slugs) === slug).length;
  const largestPage = Math.max(...complete.map(callsOf));
  // Every call the upstream received was for a page that came back whole...
  expect(
    stack.simulator.calls
      .map((call) => artistOf(call.rawPath, slugs))
      .filter((slug) => !complete.includes(slug as string)),
  ).toEqual([]);
  // ...and the allowance was spent, but for less than one page's hold (its estimate: up to twice its calls).
  expect(stack.simulator.calls.length).toBeGreaterThan(calls - 2 * largestPage);
  expect(stack.simulator.calls.length).toBeLessThanOrEqual(calls);
  expect(complete.length).toBeGreaterThanOrEqual(Math.floor(calls / largestPage) - 1);
  // The others were refused, with the time they could be served.
  for (const [i, page] of pages.entries()) {
    if (whole(page)) continue;
    expect(page.body.errors?.[0]?.extensions, slugs[i]).toMatchObject({
      code: 'RATE_LIMITED',
      resetsAt: expect.any(String),
    });
  }
});

/** The artist of the page an upstream call was made for: its slug, or its album's (named after it). */
function artistOf(path: string, slugs: readonly string[]): string | undefined {
  const name =
    /^\/api\/v1\/(?:artists|songs|milestones\/timeline|albums)\/([^/]+)/.exec(path)?.[1] ?? '';
  return slugs
    .filter((slug) => name === slug || name.startsWith(`${slug}-`))
    .sort((a, b) => b.length - a.length)[0];
}

/** A query from a client that takes JSON only: a deferred page comes back whole. */
async function jsonQuery(
  query: string,
  variables: Record<string, unknown>,
): Promise<GraphQLResponse> {
  const response = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as GraphQLResponse['body'],
  };
}
