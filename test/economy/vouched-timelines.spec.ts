/**
 * A timeline changes only when its artist crosses a milestone, and the
 * refresh poll reads the newest milestones anyway: over three gateway
 * processes on one Redis, a kept artist's timeline is current without a
 * call at a generation whose new milestones are other artists', and is
 * refreshed, showing the new milestone, at one that names its artist. The
 * profile beside it, which changes every day, is refreshed at both.
 */
import { describe, expect, it } from 'vitest';
import { calendarAt, FIRST_DAY, useMovedDeployment } from '../support/moved-deployment.js';
import { type Replica, until } from '../support/replicas.js';
import type { GraphQLResponse } from '../support/stack.js';

const calendar = calendarAt(FIRST_DAY + 12 * 60 * 60 * 1000);
const moved = useMovedDeployment(
  calendar,
  { artists: 100 },
  // A head of a few records: the artist's profile and timeline are refreshed at each generation.
  { REFRESH_POLL_SECONDS: '1' },
);

const artists = () => moved.simulator.data.allArtists().map((artist) => artist.slug);
const pageQuery = (slug: string) =>
  `{ artist(slug: "${slug}") { totalStreams milestones { id threshold } } }`;
const callsTo = (path: string) =>
  moved.simulator.calls.filter((call) => call.rawPath === path).length;

interface Freshness {
  generation: number | null;
  oldestRead?: { generation: number };
}
const freshnessOf = (response: GraphQLResponse) =>
  response.body.extensions?.freshness as Freshness | undefined;
const milestonesOf = (response: GraphQLResponse) =>
  (response.body.data?.artist as { milestones: { id: string }[] } | null)?.milestones ?? [];

async function generationEverywhere(expected: number): Promise<void> {
  await until(async () => {
    const seen = await Promise.all(
      moved.replicas.map((replica) => replica.query('{ __typename }')),
    );
    return seen.every((response) => freshnessOf(response)?.generation === expected);
  });
}

describe('timelines the refresh poll vouches for', () => {
  let slug = '';
  const profile = () => callsTo(`/api/v1/artists/${slug}`);
  const timeline = () => callsTo(`/api/v1/milestones/timeline/${slug}`);
  let milestonesBefore = 0;

  const pageEverywhere = () =>
    Promise.all(moved.replicas.map((replica) => replica.query(pageQuery(slug))));

  /**
   * The page asked on every replica: whole, of `generation`, with nothing held from before. A
   * refresh's call reaches the upstream before its answer is stored: a replica asked in between
   * serves what it holds, so this waits until every replica answers from the new generation.
   */
  async function currentEverywhere(generation: number): Promise<GraphQLResponse[]> {
    await until(async () =>
      (await pageEverywhere()).every((answer) => freshnessOf(answer)?.oldestRead === undefined),
    );
    const answers = await pageEverywhere();
    for (const answer of answers) {
      expect(answer.body.errors).toBeUndefined();
      expect(freshnessOf(answer)?.generation).toBe(generation);
      expect(freshnessOf(answer)?.oldestRead).toBeUndefined();
    }
    return answers;
  }

  it('reads a popular artist page once', async () => {
    slug = artists()[0] as string;
    await generationEverywhere(0);
    for (let view = 0; view < 12; view += 1) {
      const answer = await (moved.replicas[view % 3] as Replica).query(pageQuery(slug));
      expect(answer.body.errors).toBeUndefined();
      milestonesBefore = milestonesOf(answer).length;
    }
    expect([profile(), timeline()]).toEqual([1, 1]);
  });

  it('a generation of other artists’ milestones: the profile is refreshed, the timeline is current without a call', async () => {
    moved.simulator.publishMilestone(artists()[99]);
    await generationEverywhere(1);
    // The sweep at the new generation refreshes the popular profile, once for the deployment.
    await until(() => profile() === 2);
    for (const answer of await currentEverywhere(1))
      expect(milestonesOf(answer)).toHaveLength(milestonesBefore);
    expect([profile(), timeline()]).toEqual([2, 1]);
  });

  it('a generation that names the artist: its timeline is refreshed and shows the new milestone', async () => {
    const published = moved.simulator.publishMilestone(slug);
    await generationEverywhere(2);
    await until(() => timeline() === 2);
    for (const answer of await currentEverywhere(2))
      expect(milestonesOf(answer).map((milestone) => milestone.id)).toContain(published?.id);
    expect([profile(), timeline()]).toEqual([3, 2]);
  });
});
