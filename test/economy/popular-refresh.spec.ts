/**
 * Refreshes follow popularity (issue 15), over three gateway processes on
 * one Redis polling for the upstream's refresh: after a new generation the
 * head is refreshed first, before anyone asks for it, and once for the
 * deployment; the next ones are served as held while one generation behind
 * and refreshed before they answer once two behind (swept with the head
 * when asked often enough to be read that day); the tail is served
 * from the generation it was read in, saying so. Popularity counts every
 * view, response-cache hits included. It is the deployment's first day: no
 * refresh is moved ahead to even out the generations (refresh-phases.spec.ts).
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { popularityKey } from '../../src/economy/redis-popularity.js';
import { utcDay } from '../../src/time.js';
import { artistGenerations, freshnessOf, profileQuery } from '../support/artist-generations.js';
import { calendarAt, FIRST_DAY, useMovedDeployment } from '../support/moved-deployment.js';
import { SHARED_REDIS_URL } from '../support/redis.js';
import { type Replica, until } from '../support/replicas.js';
import type { GraphQLResponse } from '../support/stack.js';

const NOON = FIRST_DAY + 12 * 60 * 60 * 1000;

const calendar = calendarAt(NOON);
const moved = useMovedDeployment(
  calendar,
  { artists: 100 },
  {
    // A refresh allowance of 3 records a day, whether the day's polls are counted by their 1 s
    // interval (250, their most) or by their cadence (fewer): the head is its smallest (the most
    // asked record); the records up to 5 are kept within one refresh.
    BUDGET_HEAD_SHARE: '0.004',
    REFRESH_POLL_SECONDS: '1',
  },
);
const redis = new Redis(SHARED_REDIS_URL);
afterAll(() => redis.disconnect());

const { artists, profileCalls, viewEverywhere, baseline, nextGeneration } =
  artistGenerations(moved);

describe('refreshes in order of popularity, once for the deployment', () => {
  // Set once the simulator is up: the most asked artist, then twenty-one asked less and less.
  let head = '';
  let kept: string[] = [];
  let tail: string[] = [];
  const record = (slug: string) => `/api/v1/artists/${slug}`;

  it('counts views on every replica, response-cache hits included', async () => {
    const asked = artists().slice(0, 22);
    // Ranks 1 to 4 are kept within one refresh; the other seventeen are the tail.
    [head, kept, tail] = [asked[0] as string, asked.slice(1, 5), asked.slice(5)];
    // The baseline generation exists before anything is read.
    await baseline();
    // Distinct counts, so that ranks do not depend on ties: 40, 35, 32 to 30, then 17 down to 1.
    // The kept records stay well ahead of the tail: every view the tests make counts in the rank
    // it is answered by, its own included.
    const views: [string, number][] = asked.map((slug, i) => [
      slug,
      i === 0 ? 40 : i === 1 ? 35 : i < 5 ? 34 - i : 22 - i,
    ]);
    for (const [slug, count] of views)
      for (let i = 0; i < count; i++)
        await (moved.replicas[i % moved.replicas.length] as Replica).query(profileQuery(slug));
    for (const [slug] of views) expect(profileCalls(slug)).toBe(1);
    const day = `${moved.deployment.prefix}${popularityKey(utcDay(new Date(NOON)))}`;
    const score = async (slug: string) => Number((await redis.zscore(day, record(slug))) ?? 0);
    for (const [slug, count] of views) await until(async () => (await score(slug)) === count);
  });

  it('one generation on: the head is refreshed before anyone asks, once; the rest is served as read, with its age, and not refreshed', async () => {
    const generation = await nextGeneration();
    // Every replica learns the generation and sweeps the head; the flight lease makes it one call.
    await until(() => profileCalls(head) === 2);
    // Twice round: a refresh behind the first round's readers would show in the second's answers.
    for (let round = 0; round < 2; round++)
      for (const slug of [...kept, ...tail])
        for (const answer of await viewEverywhere(slug)) {
          expect(answer.body.errors).toBeUndefined();
          expect(freshnessOf(answer)).toMatchObject({ generation, oldestRead: { generation: 0 } });
        }
    for (const slug of [...kept, ...tail]) expect(profileCalls(slug)).toBe(1);
    expect(profileCalls(head)).toBe(2);
    const refreshed = await (moved.replicas[2] as Replica).query(profileQuery(head));
    expect(freshnessOf(refreshed)?.oldestRead).toBeUndefined();
  });

  it('two generations on: every kept record is refreshed before it answers, once; the tail stays as read', async () => {
    const generation = await nextGeneration();
    const answers = new Map<string, GraphQLResponse[]>();
    for (const slug of [...kept, ...tail]) answers.set(slug, await viewEverywhere(slug));
    // The head, swept at the new generation or refreshed behind its readers: once more in all.
    await until(async () => {
      if (profileCalls(head) < 3) await viewEverywhere(head);
      return profileCalls(head) === 3;
    }, 200);
    for (const slug of kept) {
      expect(profileCalls(slug)).toBe(2);
      for (const answer of answers.get(slug) ?? []) {
        expect(answer.body.errors).toBeUndefined();
        expect(freshnessOf(answer)?.oldestRead).toBeUndefined();
      }
    }
    for (const slug of tail) {
      expect(profileCalls(slug)).toBe(1);
      for (const answer of answers.get(slug) ?? []) {
        expect(answer.body.errors).toBeUndefined();
        expect(freshnessOf(answer)).toMatchObject({ generation, oldestRead: { generation: 0 } });
      }
    }
  });
});
