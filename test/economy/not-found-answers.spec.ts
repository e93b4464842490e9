/**
 * A not-found answer is no record the plan has paid for (issue 15): over two
 * gateway processes on one Redis, made-up slugs asked again and again are
 * never counted as popular, so no new generation refreshes them; a not-found
 * answer is not held past its TTL (`CACHE_NOT_FOUND_TTL_SECONDS`, a
 * duration: Redis's clock ends it, not the calendar): the record is then
 * unknown again, read as a first touch when the plan affords
 * it (the artist may exist by then) and RATE_LIMITED when it does not.
 */
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { redisCacheKey } from '../../src/cache/redis-cache.js';
import { popularityKey } from '../../src/economy/redis-popularity.js';
import { utcDay } from '../../src/time.js';
import { calendarAt, FIRST_DAY, useMovedDeployment } from '../support/moved-deployment.js';
import { SHARED_REDIS_URL } from '../support/redis.js';
import { type Replica, until } from '../support/replicas.js';
import type { GraphQLResponse } from '../support/stack.js';

const MINUTE_MS = 60 * 1000;
const NOON = FIRST_DAY + 12 * 60 * MINUTE_MS;

const calendar = calendarAt(NOON);
const moved = useMovedDeployment(
  calendar,
  { artists: 100 },
  {
    // A refresh allowance of 3 records a day however the polls are counted: a head of 1, 5 kept.
    BUDGET_HEAD_SHARE: '0.004',
    BUDGET_BURST_CALLS: '8',
    REFRESH_POLL_SECONDS: '1',
    // Long enough for a test's few asks to share one answer; short enough to wait for its end.
    CACHE_NOT_FOUND_TTL_SECONDS: '4',
  },
  2,
);
const redis = new Redis(SHARED_REDIS_URL);
afterAll(() => redis.disconnect());

const artists = () => moved.simulator.data.allArtists().map((artist) => artist.slug);
const profileQuery = (slug: string) => `{ artist(slug: "${slug}") { name } }`;
const profileCalls = (slug: string) =>
  moved.simulator.calls.filter((call) => call.rawPath === `/api/v1/artists/${slug}`).length;
const codesOf = (response: GraphQLResponse) =>
  (response.body.errors ?? []).map((error) => error.extensions?.code);
const generationOf = async (replica: Replica) => {
  const freshness = (await replica.query('{ __typename }')).body.extensions?.freshness as
    | { generation: number | null }
    | undefined;
  return freshness?.generation;
};
const ask = (slug: string, replica = 0) =>
  (moved.replicas[replica] as Replica).query(profileQuery(slug));
/** Until Redis has dropped the profile's cached answer: its TTL is real time, whatever the calendar. */
const expired = (slug: string) =>
  until(
    async () =>
      (await redis.exists(
        `${moved.deployment.prefix}${redisCacheKey(`/api/v1/artists/${slug}`)}`,
      )) === 0,
  );
/** The upstream does not know `slug` yet: its next profile read answers 404, as before an artist is added. */
const notYetUpstream = (slug: string) =>
  moved.simulator.injectFault(
    {
      kind: 'status',
      status: 404,
      body: { statusCode: 404, error: 'Not Found', message: `Artist "${slug}" not found` },
    },
    { path: `/api/v1/artists/${slug}`, times: 1 },
  );

describe('not-found answers and the plan', () => {
  it('never counts a not-found answer as popular, so a new generation does not refresh it', async () => {
    await until(async () => (await generationOf(moved.replicas[0] as Replica)) === 0);
    for (let i = 0; i < 6; i++)
      expect(codesOf(await ask('made-up-ghost', i % 2))).toEqual(['NOT_FOUND']);
    expect(profileCalls('made-up-ghost')).toBe(1);
    // Sixteen real artists asked four times each: more than the head and the records kept after it.
    const popular = artists().slice(0, 16);
    for (const slug of popular) for (let i = 0; i < 4; i++) await ask(slug, i % 2);
    const day = `${moved.deployment.prefix}${popularityKey(utcDay(new Date(NOON)))}`;
    const score = async (key: string) => redis.zscore(day, key);
    for (const slug of popular)
      await until(async () => Number(await score(`/api/v1/artists/${slug}`)) === 4);
    expect(await score('/api/v1/artists/made-up-ghost')).toBeNull();

    moved.simulator.publishMilestone(artists()[99]);
    await until(async () => (await generationOf(moved.replicas[1] as Replica)) === 1);
    // The head (one of the sixteen) is refreshed with nobody asking; the made-up slug is not.
    await until(() => popular.filter((slug) => profileCalls(slug) === 2).length === 1);
    expect(profileCalls('made-up-ghost')).toBe(1);
  });

  it('reads the record again once its not-found answer has expired: the artist may exist by then', async () => {
    const late = artists()[40] as string;
    notYetUpstream(late);
    expect(codesOf(await ask(late))).toEqual(['NOT_FOUND']);
    expect(codesOf(await ask(late, 1))).toEqual(['NOT_FOUND']);
    expect(profileCalls(late)).toBe(1);
    await expired(late);
    const found = await ask(late, 1);
    expect(found.body.errors).toBeUndefined();
    expect(found.body.data?.artist).toMatchObject({ name: expect.any(String) });
    expect(profileCalls(late)).toBe(2);
  });

  it('answers RATE_LIMITED, not a stale NOT_FOUND, when the plan cannot afford that read', async () => {
    const late = artists()[41] as string;
    notYetUpstream(late);
    expect(codesOf(await ask(late))).toEqual(['NOT_FOUND']);
    // Thirty seconds into the next day the first touches of records asked once have 4 calls.
    await moved.deployment.moveTo(FIRST_DAY + 24 * 60 * MINUTE_MS + 30_000);
    // Spent by requests of one record each: a request of six would be refused whole (it does not fit).
    for (let i = 0; i < 6; i++)
      await (moved.replicas[0] as Replica).query(`{ artist(slug: "made-up-${i}") { name } }`);
    await expired(late);
    const refused = await ask(late, 1);
    expect(codesOf(refused)).toEqual(['RATE_LIMITED']);
    expect(refused.body.errors?.[0]?.extensions?.resetsAt).toEqual(expect.any(String));
    expect(profileCalls(late)).toBe(1);
  });
});
