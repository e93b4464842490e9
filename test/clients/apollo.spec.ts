/**
 * Apollo Client 3, unmodified, over its HttpLink: a subscription over
 * Apollo's multipart HTTP protocol receiving a milestone the simulator
 * publishes, its `unsubscribe` freeing the subscription's slot, and a
 * `@defer` query assembled by Apollo from its incremental payloads.
 */
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client/core/index.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openSubscriptions } from '../support/prometheus.js';
import { until } from '../support/replicas.js';
import { type Stack, startStack } from '../support/stack.js';

const HOUR_MS = 3_600_000;

let stack: Stack;
let apollo: ApolloClient<unknown>;
beforeAll(async () => {
  stack = await startStack({ gateway: { refreshPollMs: HOUR_MS } });
  apollo = new ApolloClient({
    link: new HttpLink({ uri: `${stack.url}/graphql`, fetch }),
    cache: new InMemoryCache(),
  });
});
afterAll(async () => {
  apollo.stop();
  await stack.close();
});

it('subscribes over multipart HTTP, receives a published milestone, and frees its slot on unsubscribe', async () => {
  const slug = stack.simulator.data.allArtists()[4]!.slug;
  await stack.gateway.refreshPoll!.pollNow();
  const events: unknown[] = [];
  const errors: unknown[] = [];
  const subscription = apollo
    .subscribe({
      query: gql`
        subscription Milestones {
          milestoneCrossed {
            id
            threshold
            artist {
              slug
            }
          }
        }
      `,
    })
    .subscribe({ next: (event) => events.push(event.data), error: (error) => errors.push(error) });
  await until(async () => (await openSubscriptions(stack.gateway)) === 1);
  const published = stack.simulator.publishMilestone(slug)!;
  await stack.gateway.refreshPoll!.pollNow();
  await until(() => events.length === 1 || errors.length > 0);
  expect(errors).toEqual([]);
  expect(events[0]).toEqual({
    milestoneCrossed: {
      __typename: 'Milestone',
      id: published.id,
      threshold: published.threshold,
      artist: { __typename: 'Artist', slug },
    },
  });
  subscription.unsubscribe();
  await until(async () => (await openSubscriptions(stack.gateway)) === 0);
});

it('@defer: Apollo assembles the profile and the deferred history from multipart payloads', async () => {
  const artist = stack.simulator.data.allArtists()[5]!;
  const observed = apollo.watchQuery({
    query: gql`
      query DeferredHistory($slug: String!) {
        artist(slug: $slug) {
          id
          name
          ... @defer {
            history {
              date
            }
          }
        }
      }
    `,
    variables: { slug: artist.slug },
  });
  const complete = await new Promise<{ artist: { name: string; history?: unknown[] } }>(
    (resolve, reject) => {
      const subscription = observed.subscribe({
        next: ({ data }) => {
          if (data?.artist?.history !== undefined) {
            subscription.unsubscribe();
            resolve(data);
          }
        },
        error: reject,
      });
    },
  );
  expect(complete.artist.name).toBe(artist.name);
  expect(complete.artist.history?.length).toBeGreaterThan(0);
});
