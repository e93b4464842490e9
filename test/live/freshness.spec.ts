/**
 * The freshness model in one process (no Redis): a cached answer is fresh
 * until the refresh poll sees a new generation, then served once more at
 * once while one background call refreshes it; with the budget low it is
 * served on, unrefreshed, and the response says so.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../support/replicas.js';
import { subscribe } from '../support/sse.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

/** A poll interval no test reaches: each test polls when it chooses, with pollNow(). */
const HOUR_MS = 3_600_000;

async function start(dailyLimit = 1000): Promise<Stack> {
  stack = await startStack({
    gateway: { refreshPollMs: HOUR_MS, dailyLimit, stores: { clientBudgetShare: 1 } },
  });
  return stack;
}

const artistQuery = (slug: string) => `{ artist(slug: "${slug}") { totalStreams } }`;
interface Freshness {
  generation: number | null;
  seenAt: string | null;
  previousGeneration?: number;
  budgetLow?: boolean;
}
const freshnessOf = (body: { extensions?: Record<string, unknown> }) =>
  body.extensions?.freshness as Freshness | undefined;
const totalOf = (body: { data?: Record<string, unknown> | null }) =>
  (body.data?.artist as { totalStreams: number } | undefined)?.totalStreams;

describe('freshness follows the upstream', () => {
  it('a new generation: the cached answer once more at once, one background call, then the new value', async () => {
    const { simulator, gateway } = await start();
    const slug = simulator.data.allArtists()[3]!.slug;
    const path = `/api/v1/artists/${slug}`;
    const calls = () => simulator.calls.filter((call) => call.rawPath === path).length;

    const first = await stack!.query(artistQuery(slug));
    await gateway.refreshPoll!.pollNow();
    const baseline = await stack!.query(artistQuery(slug));
    expect(freshnessOf(baseline.body)).toEqual({ generation: 0, seenAt: expect.any(String) });
    expect(totalOf(baseline.body)).toBe(totalOf(first.body));
    await gateway.refreshPoll!.pollNow();
    expect(calls()).toBe(1);

    simulator.publishMilestone(slug);
    await gateway.refreshPoll!.pollNow();
    const revalidating = await stack!.query(artistQuery(slug));
    expect(totalOf(revalidating.body)).toBe(totalOf(first.body));
    expect(freshnessOf(revalidating.body)).toMatchObject({ generation: 1, previousGeneration: 1 });
    expect(revalidating.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 1 });

    await until(() => calls() === 2);
    await until(
      async () =>
        totalOf((await stack!.query(artistQuery(slug))).body) ===
        simulator.data.artistBySlug(slug)!.totalStreams,
    );
    const settled = await stack!.query(artistQuery(slug));
    expect(freshnessOf(settled.body)).toEqual({ generation: 1, seenAt: expect.any(String) });
    expect(calls()).toBe(2);
  });

  it('with the budget low, the previous generation is served on and the response says so', async () => {
    // 20 a day: below 2 left (10 %), nothing is refreshed in the background.
    const { simulator, gateway } = await start(20);
    const artists = simulator.data.allArtists();
    const slug = artists[0]!.slug;
    await stack!.query(artistQuery(slug));
    await gateway.refreshPoll!.pollNow();
    simulator.publishMilestone(slug);
    await gateway.refreshPoll!.pollNow();
    const spend = artists
      .slice(1, 16)
      .map((artist, i) => `a${i}: artist(slug: "${artist.slug}") { name }`);
    await stack!.query(`{ ${spend.join(' ')} }`);
    const before = simulator.calls.length;

    const answer = await stack!.query(`${artistQuery(slug).slice(0, -1)} apiUsage { remaining } }`);
    expect(answer.body.data?.apiUsage).toEqual({ remaining: 2 });
    expect(freshnessOf(answer.body)).toMatchObject({
      generation: 1,
      previousGeneration: 1,
      budgetLow: true,
    });
    expect(totalOf(answer.body)).toBe(artists[0]!.totalStreams);
    expect(simulator.calls.length).toBe(before);
  });
});

describe('Subscription.milestoneCrossed', () => {
  it('the MilestoneCrossed example streams each published milestone over SSE, filtered by isAfrobeats', async () => {
    const { simulator, gateway } = await start();
    const example = readFileSync('examples/operations/MilestoneCrossed.graphql', 'utf8');
    const artists = simulator.data.allArtists();
    const afro = artists.find((artist) => artist.isAfrobeats)!;
    const other = artists.find((artist) => artist.isAfrobeats === false)!;
    await gateway.refreshPoll!.pollNow();
    const all = await subscribe(stack!.url, example);
    const onlyAfro = await subscribe(stack!.url, example, { isAfrobeats: true });
    try {
      // Published upstream: the gateway learns of both at its next poll, and announces them oldest first.
      simulator.publishMilestone(other.slug);
      simulator.publishMilestone(afro.slug);
      const before = simulator.calls.length;
      await gateway.refreshPoll!.pollNow();
      await until(() => all.events.length === 2 && onlyAfro.events.length === 1);
      const slugs = (events: typeof all.events) =>
        events.map(
          (event) =>
            (event.data?.milestoneCrossed as { artist: { slug: string } } | undefined)?.artist.slug,
        );
      expect(slugs(all.events)).toEqual([other.slug, afro.slug]);
      expect(slugs(onlyAfro.events)).toEqual([afro.slug]);
      // The poll was the only upstream call.
      expect(simulator.calls.length).toBe(before + 1);
    } finally {
      all.close();
      onlyAfro.close();
    }
  });
});
