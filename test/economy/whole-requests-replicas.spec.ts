/**
 * Whole requests across replicas (issue 30): the same 200 concurrent cold artist pages from one
 * client as whole-requests.spec.ts, spread over three processes on one Redis. Each process
 * holds its own requests' calls, and a refused hold waits only for its own process's holds to
 * settle; the day's count and the client's share are the shared ledger's, so the allowance is
 * still spent on whole pages, and no call on a page refused.
 */
import { it } from 'vitest';
import { HOUR_MS } from '../support/calendar.js';
import { calendarAt, FIRST_DAY, useMovedDeployment } from '../support/moved-deployment.js';
import type { Replica } from '../support/replicas.js';
import { clientAllowanceAt, expectWholePages, PAGE, PLAN_ENV } from '../support/whole-pages.js';

/** Noon of a new deployment's first day, on every replica's calendar and the simulator's. */
const NOON = FIRST_DAY + 12 * HOUR_MS;

const moved = useMovedDeployment(
  calendarAt(NOON),
  {},
  {
    // The plan and one client's share: every page comes from the same address, whichever
    // replica serves it.
    ...PLAN_ENV,
    // The refresh poll's first try comes a fifth of its interval after the start: none during the test.
    REFRESH_POLL_SECONDS: String(HOUR_MS / 1000),
  },
  3,
);

it('200 concurrent cold pages over three replicas: the allowance buys whole pages, and no call is spent on a page refused', async () => {
  const slugs = moved.simulator.data
    .allArtists()
    .slice(0, 200)
    .map((artist) => artist.slug);
  const pages = await Promise.all(
    slugs.map((slug, i) =>
      (moved.replicas[i % moved.replicas.length] as Replica).query(PAGE, { slug }),
    ),
  );
  expectWholePages(
    slugs,
    pages,
    moved.simulator.calls.map((call) => call.rawPath),
    clientAllowanceAt(NOON),
    moved.replicas.length,
  );
});
