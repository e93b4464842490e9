/**
 * The upstream refreshes at one time of day: once the refresh poll has seen one refresh, the
 * next is expected a day later, from as early as the first may have happened. In that window
 * the poll runs at its dense cadence (a steady poll's lease does not hold it back), and a held
 * record one generation behind is refreshed before it answers, since the upstream has most likely
 * published the next generation already: no reader is shown data two refreshes old in the
 * minutes between the upstream's refresh and the poll that sees it. Outside the window, the
 * same record answers at once while it is refreshed behind.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DAY_MS, HOUR_MS, todayAtUtc } from '../support/calendar.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** The gateway's calendar, moved by the test; starts at 02:00 today (UTC). */
function movedCalendar() {
  let at = todayAtUtc(2);
  return {
    now: () => new Date(at),
    moveTo(epochMs: number) {
      at = epochMs;
    },
  };
}

/** A gateway polling hourly on a calendar the test moves, from 02:00 today. */
async function startPolling() {
  const calendar = movedCalendar();
  const started = await startStack({
    gateway: { refreshPollMs: HOUR_MS, now: calendar.now, stores: { clientBudgetShare: 1 } },
  });
  stack = started;
  const { simulator, gateway } = started;
  const poll = gateway.refreshPoll;
  if (poll === undefined) throw new Error('the gateway has no refresh poll');
  return { calendar, simulator, gateway, poll, stack: started };
}

const artistQuery = (slug: string) => `{ artist(slug: "${slug}") { totalStreams } }`;
const totalOf = (body: { data?: Record<string, unknown> | null }) =>
  (body.data?.artist as { totalStreams: number } | undefined)?.totalStreams;

describe('the expected refresh window', () => {
  it('refreshes a record one generation behind before it answers, within the window only', async () => {
    const { calendar, simulator, gateway, poll, stack: running } = await startPolling();
    const [early, late] = simulator.data.allArtists().slice(0, 2);
    if (early === undefined || late === undefined) throw new Error('too few artists');
    const callsOf = (slug: string) =>
      simulator.calls.filter((call) => call.rawPath === `/api/v1/artists/${slug}`).length;

    // Both read in generation 0; the upstream's refresh is then seen at 03:10.
    await poll.pollNow();
    await running.query(artistQuery(early.slug));
    await running.query(artistQuery(late.slug));
    simulator.publishMilestone(early.slug);
    calendar.moveTo(todayAtUtc(3) + 10 * 60_000);
    await poll.pollNow();
    expect(gateway.generation.now()?.id).toBe(1);

    // Before the window: one generation behind answers at once, refreshed behind.
    calendar.moveTo(todayAtUtc(3) + DAY_MS - 2 * HOUR_MS);
    const outside = await running.query(artistQuery(early.slug));
    expect(outside.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 1 });
    expect(outside.body.extensions?.freshness).toMatchObject({ previousGeneration: 1 });

    // In the window (the next day, minutes before 03:10): refreshed before it answers.
    calendar.moveTo(todayAtUtc(3) + DAY_MS);
    const before = callsOf(late.slug);
    const inside = await running.query(artistQuery(late.slug));
    expect(inside.body.extensions?.cost).toMatchObject({ upstreamCalls: 1 });
    expect(inside.body.extensions?.freshness).not.toHaveProperty('previousGeneration');
    expect(inside.body.extensions?.stale).toBeUndefined();
    expect(totalOf(inside.body)).toBe(simulator.data.artistBySlug(late.slug)?.totalStreams);
    expect(callsOf(late.slug)).toBe(before + 1);
  });

  it('polls in the window although a steady poll has just run', async () => {
    const { calendar, simulator, gateway, poll } = await startPolling();
    const polls = () =>
      simulator.calls.filter((call) => call.rawPath.startsWith('/api/v1/milestones')).length;

    await poll.tick();
    simulator.publishMilestone(simulator.data.allArtists()[0]?.slug ?? '');
    calendar.moveTo(todayAtUtc(3) + 10 * 60_000);
    await poll.pollNow();
    // A steady poll, its lease held for an hour; another steady try does not poll.
    const steady = polls();
    calendar.moveTo(todayAtUtc(3) + DAY_MS - 2 * HOUR_MS);
    await poll.tick();
    expect(polls()).toBe(steady);
    // The window opens: the dense cadence has a lease of its own, and the next try polls.
    calendar.moveTo(todayAtUtc(3) + DAY_MS);
    await poll.tick();
    expect(polls()).toBe(steady + 1);
    // Once seen, the next refresh is expected a day later, and learned to the dense cadence.
    simulator.publishMilestone(simulator.data.allArtists()[1]?.slug ?? '');
    calendar.moveTo(todayAtUtc(3) + DAY_MS + 5 * 60_000);
    await poll.pollNow('dense');
    const seen = gateway.generation.now();
    expect(seen?.id).toBe(2);
    // Since the poll before it (the window's first), on the calendar, by a dense poll.
    expect(seen).toMatchObject({ seenWithinMs: 5 * 60_000, seenBy: 'dense' });
    expect(gateway.generation.refreshExpected()).toBe(false);
    // The next day's window is narrow: from a span and a dense poll before, to three dense polls after.
    const seenAt = todayAtUtc(3) + 2 * DAY_MS + 5 * 60_000;
    for (const [offsetMinutes, expected] of [
      [-11, false],
      [-9, true],
      [14, true],
      [16, false],
    ] as const) {
      calendar.moveTo(seenAt + offsetMinutes * 60_000);
      expect(gateway.generation.refreshExpected(), `${offsetMinutes} min`).toBe(expected);
    }
  });
});
