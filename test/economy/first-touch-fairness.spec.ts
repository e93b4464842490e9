/**
 * One client cannot take the day's paced first touches for itself: over two
 * gateway processes on one Redis, a client asking for made-up artists is
 * refused once it has made its share of the first touches the plan allows so
 * far (half of them, `CLIENT_BUDGET_SHARE`), told when it may read a new
 * record, while another client still gets a whole artist page read cold.
 */
import { describe, expect, it } from 'vitest';
import {
  calendarAt,
  EVEN_YESTERDAY,
  FIRST_DAY,
  useMovedDeployment,
} from '../support/moved-deployment.js';
import type { Replica } from '../support/replicas.js';
import type { GraphQLResponse } from '../support/stack.js';

const SIX_AM = FIRST_DAY + 6 * 60 * 60 * 1000;

const calendar = calendarAt(SIX_AM);
const moved = useMovedDeployment(
  calendar,
  { artists: 50 },
  {
    UPSTREAM_DAILY_LIMIT: '100',
    BUDGET_BURST_CALLS: '8',
    REFRESH_POLL_SECONDS: '86400',
    CLIENT_BUDGET_SHARE: '0.5',
    RATE_LIMIT_REQUESTS: '0',
    RATE_LIMIT_TRUST_PROXY: 'true',
  },
  2,
  // A deployment that served yesterday, evenly: the plan paces by the clock and keeps the head.
  EVEN_YESTERDAY,
);

const from = (address: string) => ({ 'x-forwarded-for': address });
const codesOf = (response: GraphQLResponse) =>
  (response.body.errors ?? []).map((error) => error.extensions?.code);
const madeUpCalls = () =>
  moved.simulator.calls.filter((call) => call.rawPath.includes('made-up-')).length;

describe('a client’s share of the paced first touches', () => {
  it('stops a client asking for made-up artists at its share; another client still reads a page', async () => {
    // 06:00 of a 100-call day (1 poll, 29 for refreshes): 70 first touches a day, 17.5 + the burst
    // by now. One client may make half of the 25.5 (12); a record asked once, 17 in all.
    let refusal: GraphQLResponse | undefined;
    for (let request = 0; refusal === undefined && request < 5; request++) {
      const fields = Array.from(
        { length: 10 },
        (_, i) => `a${i}: artist(slug: "made-up-${request}-${i}") { name }`,
      );
      const response = await (moved.replicas[request % 2] as Replica).query(
        `{ ${fields.join(' ')} }`,
        undefined,
        from('203.0.113.7'),
      );
      if (codesOf(response).includes('RATE_LIMITED')) refusal = response;
    }
    expect(madeUpCalls()).toBe(12);
    const limited = refusal?.body.errors?.find((e) => e.extensions?.code === 'RATE_LIMITED');
    expect(limited?.message).toMatch(/share of the records first read/);
    expect(Date.parse(String(limited?.extensions?.resetsAt))).toBeGreaterThan(SIX_AM);

    const [artist] = moved.simulator.data.allArtists();
    const page = await (moved.replicas[1] as Replica).query(
      `query ($slug: String!) { artist(slug: $slug) { name history { date } milestones { threshold } songs(first: 2) { nodes { title } } } }`,
      { slug: artist?.slug },
      from('198.51.100.20'),
    );
    expect(page.body.errors).toBeUndefined();
    expect(page.body.data?.artist).toMatchObject({ name: artist?.name });

    // The greedy client is still held to its share; it waits for the line, not for midnight.
    const again = await (moved.replicas[0] as Replica).query(
      '{ artist(slug: "made-up-late") { name } }',
      undefined,
      from('203.0.113.7'),
    );
    expect(codesOf(again)).toEqual(['RATE_LIMITED']);
    expect(madeUpCalls()).toBe(12);
  });
});
