/**
 * Gateway processes whose calendars are not Redis's (issue 26): a VM
 * restored days behind, a clock moved a year ahead, two replicas 30 s
 * apart. Redis keeps its own time; nothing the gateway sends it is an
 * instant of the gateway's calendar, so the day's count survives a restart,
 * no key outlives its purpose, and replicas agree on what is fresh.
 */
import { expect, it } from 'vitest';
import { DAY_MS } from '../support/calendar.js';
import { artistsQuery, codes, USAGE, useReplicaDeployment } from '../support/replica-deployment.js';
import { type Replica, until } from '../support/replicas.js';

const deployment = useReplicaDeployment();
const { calls, slugs } = deployment;

async function start(clockOffsetMs: number, env: Record<string, string> = {}): Promise<Replica> {
  const [replica] = await deployment.start(
    1,
    { CLIENT_BUDGET_SHARE: '1', ...env },
    { clockOffsetMs },
  );
  return replica as Replica;
}

it("a gateway 3 days behind Redis's calendar keeps the day's count across a restart and never passes the limit", async () => {
  const env = { UPSTREAM_DAILY_LIMIT: '5' };
  const first = await start(-3 * DAY_MS, env);
  expect(codes(await first.query(artistsQuery(slugs(0, 3))))).toEqual([]);
  expect(calls()).toBe(3);
  await first.stop();

  const second = await start(-3 * DAY_MS, env);
  expect((await second.query(USAGE)).body.data).toEqual({ apiUsage: { used: 3, remaining: 2 } });
  const more = await second.query(artistsQuery(slugs(3, 4)));
  expect(codes(more)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
  expect(calls()).toBe(5);
});

it("a gateway 400 days ahead of Redis's calendar writes no key that lives longer than 32 days", async () => {
  const ahead = await start(400 * DAY_MS, { BUDGET_PLAN: 'true' });
  const page = await ahead.query(
    `{ artist(slug: "${slugs(0, 1)[0]}") { name history { date } milestones { threshold } } }`,
  );
  expect(page.body.errors).toBeUndefined();
  // Views are counted for the plan every tenth of a second: wait for the popularity set to be written.
  await until(async () =>
    [...(await deployment.keys()).keys()].some((key) => key.includes('popularity:')),
  );
  const ttls = await deployment.keys();
  expect(ttls.size).toBeGreaterThan(3);
  const tooLong = [...ttls].filter(([, ttl]) => ttl <= 0 || ttl > 32 * DAY_MS);
  expect(tooLong).toEqual([]);
});

it('two replicas whose calendars are 30 s apart agree on what is fresh, either one writing', async () => {
  // Fresh for 20 s: a replica that judged by the writer's instants would see an entry written
  // 30 s behind its calendar as stale at once (and one written 30 s ahead fresh for 50 s, which
  // test/cache/redis-cache-clocks.spec.ts measures without waiting for it).
  const env = { CACHE_TTL_SECONDS: '20' };
  const behind = await start(0, env);
  const ahead = await start(30_000, env);
  const [fromBehind, fromAhead] = slugs(0, 2) as [string, string];

  await behind.query(artistsQuery([fromBehind]));
  expect(calls()).toBe(1);
  expect(codes(await ahead.query(artistsQuery([fromBehind])))).toEqual([]);
  expect(calls()).toBe(1);

  await ahead.query(artistsQuery([fromAhead]));
  expect(calls()).toBe(2);
  expect(codes(await behind.query(artistsQuery([fromAhead])))).toEqual([]);
  expect(calls()).toBe(2);
});
