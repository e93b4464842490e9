/**
 * Artist profiles read through a moved deployment's replicas, and the upstream's generations
 * turned by publishing a milestone: what the specs of refreshes by popularity share.
 */

import type { MovedSetup } from './moved-deployment.js';
import { type Replica, until } from './replicas.js';
import type { GraphQLResponse } from './stack.js';

export interface Freshness {
  generation: number | null;
  oldestRead?: { generation: number; readAt: string };
}

export const freshnessOf = (response: GraphQLResponse) =>
  response.body.extensions?.freshness as Freshness | undefined;

export const profileQuery = (slug: string) => `{ artist(slug: "${slug}") { name totalStreams } }`;

export function artistGenerations(moved: MovedSetup) {
  const artists = () => moved.simulator.data.allArtists().map((artist) => artist.slug);
  const first = () => moved.replicas[0] as Replica;
  const generationSeen = async (replica: Replica) =>
    freshnessOf(await replica.query('{ __typename }'))?.generation;
  return {
    artists,
    /** The upstream calls that read `slug`'s profile so far. */
    profileCalls: (slug: string) =>
      moved.simulator.calls.filter((call) => call.rawPath === `/api/v1/artists/${slug}`).length,
    /** Every replica asks for `slug` once. */
    viewEverywhere: (slug: string): Promise<GraphQLResponse[]> =>
      Promise.all(moved.replicas.map((replica) => replica.query(profileQuery(slug)))),
    /** Waits for the baseline generation, read before anything else. */
    async baseline(): Promise<void> {
      await until(async () => (await generationSeen(first())) === 0);
    },
    /** Turns the upstream's data (a milestone of the last artist) and waits until every replica knows. */
    async nextGeneration(): Promise<number> {
      const expected = ((await generationSeen(first())) ?? 0) + 1;
      moved.simulator.publishMilestone(artists().at(-1));
      await until(async () => {
        const seen = await Promise.all(moved.replicas.map(generationSeen));
        return seen.every((generation) => generation === expected);
      });
      return expected;
    },
  };
}
