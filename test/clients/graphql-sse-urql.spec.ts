/**
 * urql (its core client, as every urql binding uses it) and graphql-sse,
 * unmodified: a query over urql's fetch exchange, and a subscription over
 * graphql-sse (directly, and as urql's subscription exchange) receiving a
 * milestone the simulator publishes.
 */
import { Client, fetchExchange, subscriptionExchange } from '@urql/core';
import { createClient as createSseClient } from 'graphql-sse';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSubscriptions } from '../support/prometheus.js';
import { until } from '../support/replicas.js';
import { type Stack, startStack } from '../support/stack.js';

const HOUR_MS = 3_600_000;
const MILESTONES = 'subscription { milestoneCrossed { id artist { slug } } }';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ gateway: { refreshPollMs: HOUR_MS } });
});
afterAll(() => stack.close());

/** Publishes a milestone of `slug` once `subscribers` are listening, and polls so the gateway sees it. */
async function publishTo(subscribers: number, slug: string) {
  await stack.gateway.refreshPoll!.pollNow();
  await until(async () => (await openSubscriptions(stack.gateway)) === subscribers);
  const published = stack.simulator.publishMilestone(slug)!;
  await stack.gateway.refreshPoll!.pollNow();
  return published;
}

it('urql: a query over its fetch exchange', async () => {
  const urql = new Client({ url: `${stack.url}/graphql`, exchanges: [fetchExchange] });
  const artist = stack.simulator.data.allArtists()[8]!;
  const result = await urql
    .query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug: artist.slug })
    .toPromise();
  expect(result.error).toBeUndefined();
  expect(result.data).toEqual({ artist: { name: artist.name } });
});

it('graphql-sse and urql over graphql-sse: each receives a published milestone once', async () => {
  const sse = createSseClient({ url: `${stack.url}/graphql`, retryAttempts: 0 });
  const urql = new Client({
    url: `${stack.url}/graphql`,
    exchanges: [
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({
            unsubscribe: sse.subscribe({ ...request, query: request.query ?? '' }, sink),
          }),
        }),
      }),
    ],
  });
  const direct: unknown[] = [];
  const viaUrql: unknown[] = [];
  const stopDirect = sse.subscribe(
    { query: MILESTONES },
    { next: (event) => direct.push(event.data), error: () => {}, complete: () => {} },
  );
  const stopUrql = urql
    .subscription(MILESTONES, {})
    .subscribe((result) => viaUrql.push(result.data));
  const slug = stack.simulator.data.allArtists()[9]!.slug;
  const published = await publishTo(2, slug);
  await until(() => direct.length === 1 && viaUrql.length === 1);
  const expected = { milestoneCrossed: { id: published.id, artist: { slug } } };
  expect(direct).toEqual([expected]);
  expect(viaUrql).toEqual([expected]);
  stopDirect();
  stopUrql.unsubscribe();
  await until(async () => (await openSubscriptions(stack.gateway)) === 0);
  sse.dispose();
});
