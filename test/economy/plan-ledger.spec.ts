/**
 * Both ledgers enforce the plan's ceilings with the count (issue 15): a call
 * is refused once its purpose's counter reaches the limit or the day's
 * total reaches the ceiling, the counters are kept per purpose, and the
 * file ledger remembers them across a restart. Redis is the real one, and
 * the ledgers' calendar is today's, 3 days behind Redis's or 400 days ahead
 * of it: the day's keys live until the end of the gateway's day, as a
 * duration, whatever Redis's clock says.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { type BudgetLedger, PlanRefusal } from '../../src/economy/ledger.js';
import { MemoryBudgetLedger } from '../../src/economy/memory-ledger.js';
import { RedisBudgetLedger } from '../../src/economy/redis-ledger.js';
import type { Ceiling } from '../../src/economy/spending-plan.js';
import { utcDay } from '../../src/time.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { CALENDARS_AGAINST_REDIS, HOUR_MS, todayAtUtc } from '../support/calendar.js';
import { deleteUnder, keysUnder, SHARED_REDIS_URL, uniquePrefix } from '../support/redis.js';

const prefix = uniquePrefix();
const redis = new Redis(SHARED_REDIS_URL, { keyPrefix: prefix });
const cleaner = new Redis(SHARED_REDIS_URL);
const folder = mkdtempSync(join(tmpdir(), 'plan-ledger-'));
afterAll(async () => {
  // The day's keys live until the end of the ledger's day plus an hour, however far its calendar is.
  const ttls = [...(await keysUnder(cleaner, prefix)).values()];
  expect(ttls.length).toBeGreaterThan(0);
  expect(ttls.filter((ttl) => ttl <= 0 || ttl > 25 * HOUR_MS)).toEqual([]);
  await deleteUnder(cleaner, prefix);
  redis.disconnect();
  cleaner.disconnect();
  rmSync(folder, { recursive: true, force: true });
});

/** A ledger on its calendar, at noon unless told another clock. */
type Create = (now?: () => Date) => BudgetLedger;

const ledgers: [string, string, Create, number][] = CALENDARS_AGAINST_REDIS.flatMap(
  ([when, offset]) => {
    const at = todayAtUtc(12) + offset;
    const options = (now = () => new Date(at)) => ({ dailyLimit: 10, clientShare: 1, now });
    const file = join(folder, `budget-${at}.json`);
    return [
      ['memory, with a file', when, (now) => new MemoryBudgetLedger(options(now), file), at],
      ['redis', when, (now) => new RedisBudgetLedger(redis, options(now)), at],
    ] as [string, string, Create, number][];
  },
);

const paced: Ceiling = { counter: 'paced', total: 8, limit: 2 };
const refresh: Ceiling = { counter: 'refreshed', total: 8, limit: 5 };

describe.each(ledgers)('the %s ledger under the plan, %s', (_, __, create, noon) => {
  it('refuses past a purpose’s limit or the total, and counts by purpose', async () => {
    const ledger = create();
    const reserve = (ceiling: Ceiling) => ledger.reserve({ keyId: 'key', ceiling });
    await reserve(paced);
    await reserve(paced);
    await expect(reserve(paced)).rejects.toBeInstanceOf(PlanRefusal);
    for (let i = 0; i < 5; i++) await reserve(refresh);
    await expect(reserve(refresh)).rejects.toBeInstanceOf(PlanRefusal);
    await ledger.reserve({ keyId: 'key', ceiling: { counter: 'polled', total: 10, limit: 1 } });
    // The total: 8 made; a paced call with room in its counter still stops at the ceiling.
    await expect(reserve({ counter: 'paced', total: 8, limit: 100 })).rejects.toBeInstanceOf(
      PlanRefusal,
    );
    expect(await ledger.spending('key')).toEqual({ used: 8, paced: 2, refreshed: 5, polled: 1 });
    expect((await ledger.usage('key')).remaining).toBe(2);
  });

  it('remembers the counters after a restart', async () => {
    expect(await create().spending('key')).toEqual({ used: 8, paced: 2, refreshed: 5, polled: 1 });
  });

  it('refuses a client past its share of the first touches while another is served', async () => {
    const ledger = create();
    const firstTouch = (clientId: string) =>
      ledger.reserve({
        keyId: 'shared-key',
        clientId,
        ceiling: { counter: 'paced', total: 10, limit: 8, clientLimit: 3 },
      });
    for (let i = 0; i < 3; i++) await firstTouch('greedy');
    const refusal = await firstTouch('greedy').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(PlanRefusal);
    expect((refusal as PlanRefusal).clientPaced).toBe(3);
    await firstTouch('other');
    // A refresh is not a first touch: the client's share of them does not stand in its way.
    await ledger.reserve({ keyId: 'shared-key', clientId: 'greedy', ceiling: refresh });
    expect(await ledger.spending('shared-key')).toMatchObject({ used: 5, paced: 4, refreshed: 1 });
  });

  it('remembers each client’s first touches after a restart', async () => {
    const refusal = await create()
      .reserve({
        keyId: 'shared-key',
        clientId: 'greedy',
        ceiling: { counter: 'paced', total: 10, limit: 8, clientLimit: 3 },
      })
      .catch((error: unknown) => error);
    expect((refusal as PlanRefusal).clientPaced).toBe(3);
  });

  it('takes a request’s calls together, all or none, and takes back what it did not use', async () => {
    const ledger = create();
    const ceiling: Ceiling = { counter: 'paced', total: 9, limit: 6, clientLimit: 5 };
    const hold = (calls: number) =>
      ledger.reserve({ keyId: 'held-key', clientId: 'page', ceiling, calls });
    const day = await hold(4);
    expect(day).toBe(utcDay(new Date(noon)));
    // Three more do not fit under the limit of 6: none is taken.
    await expect(hold(3)).rejects.toBeInstanceOf(PlanRefusal);
    expect(await ledger.spending('held-key')).toMatchObject({ used: 4, paced: 4 });
    // The request used one of its four: three go back, to the day, the counter and the client.
    await ledger.release({ keyId: 'held-key', clientId: 'page', ceiling, calls: 3, day });
    expect(await ledger.spending('held-key')).toMatchObject({ used: 1, paced: 1 });
    expect((await ledger.usage('held-key')).used).toBe(1);
    await hold(4);
    expect(await ledger.spending('held-key')).toMatchObject({ used: 5, paced: 5 });
    // Never more back than was taken.
    await ledger.release({ keyId: 'held-key', clientId: 'page', ceiling, calls: 50, day });
    expect(await ledger.spending('held-key')).toMatchObject({ used: 0, paced: 0 });
    await hold(5);
    expect(await ledger.spending('held-key')).toMatchObject({ used: 5, paced: 5 });
  });

  it('counts a call on its way at midnight on the new day too, and drops what a hold of the day before gives back', async () => {
    let at = noon + 12 * HOUR_MS - 1_000;
    const ledger = create(() => new Date(at));
    const yesterday = await ledger.reserve({ keyId: 'midnight', ceiling: paced, calls: 2 });
    expect(yesterday).toBe(utcDay(new Date(noon)));
    at += 2_000;
    const today = utcDay(new Date(at));
    // The call that left yesterday came back today: the upstream may count it today.
    expect(await ledger.dayTurned('midnight', yesterday)).toBe(today);
    expect(await ledger.dayTurned('midnight', today)).toBe(today);
    expect((await ledger.usage('midnight')).used).toBe(1);
    // The hold's other call was yesterday's: today never took it, and keeps its count.
    await ledger.release({ keyId: 'midnight', ceiling: paced, calls: 1, day: yesterday });
    expect(await ledger.spending('midnight')).toMatchObject({ used: 1, paced: 0 });
    for (let call = 1; call < 10; call++) await ledger.reserve({ keyId: 'midnight' });
    await expect(ledger.reserve({ keyId: 'midnight' })).rejects.toThrow(UpstreamError);
  });
});
