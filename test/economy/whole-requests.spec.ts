/**
 * When the day's allowance cannot cover every request, it is spent on
 * requests answered whole (issue 30): 200 concurrent cold artist pages from
 * one client, against the client's paced allowance at noon. Before, 146
 * calls were spent and no page came back complete.
 */
import { afterAll, beforeAll, it } from 'vitest';
import { HOUR_MS, todayAtUtc } from '../support/calendar.js';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';
import {
  CLIENT_SHARE,
  clientAllowanceAt,
  expectWholePages,
  PAGE,
  PLAN,
} from '../support/whole-pages.js';

const NOON = todayAtUtc(12);

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
  const slugs = stack.simulator.data
    .allArtists()
    .slice(0, 200)
    .map((artist) => artist.slug);
  const pages = await Promise.all(slugs.map((slug) => jsonQuery(PAGE, { slug })));
  expectWholePages(
    slugs,
    pages,
    stack.simulator.calls.map((call) => call.rawPath),
    clientAllowanceAt(NOON),
  );
});

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
