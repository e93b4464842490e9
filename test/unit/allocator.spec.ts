/**
 * The allocator alone (src/economy/allocator.ts), on a real memory ledger,
 * memory popularity and spending plan sharing one calendar, built from the
 * real today: how far behind a held record may fall by its popularity, the
 * first touches a record asked once or twice may take, a client held to its
 * share, and refusals that name a time at which the call is indeed served.
 */
import { expect, it } from 'vitest';
import { Allocator } from '../../src/economy/allocator.js';
import { FIRST_DAY_GROWTH } from '../../src/economy/demand-forecast.js';
import type { Spender } from '../../src/economy/ledger.js';
import { MemoryBudgetLedger } from '../../src/economy/memory-ledger.js';
import { MemoryPopularity } from '../../src/economy/memory-popularity.js';
import { LIKELY_READ_TODAY } from '../../src/economy/popularity.js';
import { AHEAD_SHARE, DEMAND_MARGIN, SpendingPlan } from '../../src/economy/spending-plan.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { DAY_MS, todayAtUtc } from '../support/calendar.js';

const KEY: Spender = { keyId: 'gateway key' };
const BURST = 8;
const NOTHING = { used: 0, paced: 0, refreshed: 0, polled: 0 };

/** Allocator, ledger, popularity and plan on one calendar that starts at `startMs` and can be moved. */
function economy(startMs: number, { dailyLimit = 1_000, clientShare = 1 } = {}) {
  const calendar = { ms: startMs };
  const now = () => new Date(calendar.ms);
  const plan = new SpendingPlan({
    dailyLimit,
    pollIntervalMs: undefined,
    headShare: 0.4,
    burst: BURST,
    clientShare,
  });
  const popularity = new MemoryPopularity(now);
  const ledger = new MemoryBudgetLedger({ dailyLimit, clientShare: 1, now });
  const allocator = new Allocator(plan, popularity, ledger, now);
  return { allocator, calendar, ledger, plan, popularity };
}

/** Reserves first touches of `key` until the allocator refuses one: how many it allowed, and the refusal. */
async function firstTouchesUntilRefused(
  allocator: Allocator,
  key: string,
  spender: Spender = KEY,
): Promise<{ allowed: number; refusal: UpstreamError }> {
  for (let allowed = 0; allowed < 10_000; allowed++) {
    try {
      await allocator.reserve(spender, 'first-touch', key);
    } catch (error) {
      if (!(error instanceof UpstreamError)) throw error;
      return { allowed, refusal: error };
    }
  }
  throw new Error('never refused');
}

it('lets the head fall no generation behind, the kept records one, the tail any number', async () => {
  const { allocator, plan, popularity } = economy(todayAtUtc(12), { dailyLimit: 20 });
  const records = Array.from({ length: plan.keptRecords + 2 }, (_, i) => `/records/${i}`);
  // Record i is asked fewer times than record i - 1: its rank is i.
  records.forEach((record, i) => {
    for (let view = 0; view < records.length - i; view++) popularity.record([record]);
  });
  expect(plan.headRecords).toBeGreaterThan(0);
  expect(plan.keptRecords).toBeGreaterThan(plan.headRecords);

  const lags = await Promise.all(
    records.map(async (record) => allocator.heldLag(record, KEY.keyId)),
  );
  expect(lags).toEqual(
    records.map((_, rank) =>
      rank < plan.headRecords ? 0 : rank < plan.keptRecords ? 1 : Number.POSITIVE_INFINITY,
    ),
  );
  expect(await allocator.heldLag('/never-asked', KEY.keyId)).toBe(Number.POSITIVE_INFINITY);
});

it('keeps within one refresh only records asked about once a day or more, however few there are', async () => {
  const { allocator, plan, popularity } = economy(todayAtUtc(12), { dailyLimit: 20 });
  // Fewer records than the kept tier holds: every one ranks within it.
  const records = Array.from({ length: plan.keptRecords }, (_, i) => `/records/${i}`);
  records.forEach((record, i) => {
    const views = i < plan.headRecords ? 10 : i % 2 === 0 ? LIKELY_READ_TODAY : 1;
    for (let view = 0; view < views; view++) popularity.record([record]);
  });
  const lags = await Promise.all(
    records.map(async (record) => allocator.heldLag(record, KEY.keyId)),
  );
  expect(lags).toEqual(
    records.map((_, i) => (i < plan.headRecords ? 0 : i % 2 === 0 ? 1 : Number.POSITIVE_INFINITY)),
  );
});

it('gives a record asked once half the burst, and one asked twice the whole of it and the lead', async () => {
  // Just past midnight: the pacing line has not moved, the burst is all a record asked once has;
  // one asked twice may also buy AHEAD_SHARE of the day's paced calls ahead of the demand.
  const { allocator, ledger, plan, popularity, calendar } = economy(todayAtUtc(0) + 1);
  popularity.record(['/once']);
  popularity.record(['/twice']);
  popularity.record(['/twice']);

  const once = await firstTouchesUntilRefused(allocator, '/once');
  expect(once.allowed).toBe(BURST / 2);
  expect(once.refusal.code).toBe('RATE_LIMITED');
  expect(once.refusal.message).toMatch(/^Today's upstream budget is planned over the whole day/);

  const now = new Date(calendar.ms);
  const lead = plan.ceiling('first-touch', now, NOTHING, true, await allocator.shapeOf(now)).limit;
  expect(lead).toBeGreaterThanOrEqual(Math.floor(600 * AHEAD_SHARE) + BURST);
  const twice = await firstTouchesUntilRefused(allocator, '/twice');
  expect(twice.allowed).toBe(lead - BURST / 2);
  expect(await ledger.spending(KEY.keyId)).toEqual({
    used: lead,
    paced: lead,
    refreshed: 0,
    polled: 0,
  });
});

it('serves a refused first touch at the time its refusal named, not before', async () => {
  const { allocator, calendar } = economy(todayAtUtc(0) + 1);
  const { refusal } = await firstTouchesUntilRefused(allocator, '/once');
  const resetsAt = Date.parse(refusal.resetsAt ?? '');
  expect(resetsAt).toBeGreaterThan(calendar.ms);
  expect(resetsAt).toBeLessThanOrEqual(todayAtUtc(0) + DAY_MS);

  calendar.ms = resetsAt - 1_000;
  await expect(allocator.reserve(KEY, 'first-touch', '/once')).rejects.toThrow(UpstreamError);
  calendar.ms = resetsAt;
  await allocator.reserve(KEY, 'first-touch', '/once');
});

it('refreshes held records outside the pacing: more of them than the burst, at once', async () => {
  const { allocator, ledger } = economy(todayAtUtc(0) + 1);
  for (let i = 0; i < 2 * BURST; i++)
    await allocator.reserve(KEY, 'refresh', `/never-counted/${i}`);
  expect(await ledger.spending(KEY.keyId)).toMatchObject({
    used: 2 * BURST,
    refreshed: 2 * BURST,
    paced: 0,
  });
  // The first touches' burst is still whole.
  expect((await firstTouchesUntilRefused(allocator, '/once')).allowed).toBe(BURST / 2);
});

it('holds one client to its share of the first touches, and names when it may read again', async () => {
  const { allocator, calendar, popularity } = economy(todayAtUtc(12), { clientShare: 0.5 });
  popularity.record(['/popular']);
  popularity.record(['/popular']);
  const greedy: Spender = { ...KEY, clientId: 'greedy' };
  const other: Spender = { ...KEY, clientId: 'other' };

  const { allowed, refusal } = await firstTouchesUntilRefused(allocator, '/popular', greedy);
  expect(allowed).toBeGreaterThan(BURST);
  expect(refusal.code).toBe('RATE_LIMITED');
  expect(refusal.message).toMatch(/^This client has made its share of the records first read/);
  // The others are served meanwhile.
  await allocator.reserve(other, 'first-touch', '/popular');

  const resetsAt = Date.parse(refusal.resetsAt ?? '');
  expect(resetsAt).toBeGreaterThan(calendar.ms);
  calendar.ms = resetsAt;
  await allocator.reserve(greedy, 'first-touch', '/popular');
});

it('passes on the ledger’s own refusals as they are', async () => {
  const { allocator, ledger } = economy(todayAtUtc(12));
  ledger.rateLimited(
    KEY.keyId,
    new UpstreamError('RATE_LIMITED', 'Daily limit of 1000 requests reached', { status: 429 }),
  );
  await expect(allocator.reserve(KEY, 'refresh', '/a')).rejects.toThrow(
    'The daily upstream request budget of this API key is spent',
  );
});

it('lets every first touch through once the calls left cover what the rest of the day is expected to ask', async () => {
  /** A day after one that asked 100 first touches an hour, at noon, with `askedToday` asked so far. */
  const noonAfterAnEvenDay = (askedToday: number) => {
    const setup = economy(todayAtUtc(0) - DAY_MS);
    for (let hour = 0; hour < 24; hour++) {
      setup.calendar.ms = todayAtUtc(0) - DAY_MS + (hour + 0.5) * 3_600_000;
      for (let i = 0; i < 100; i++) setup.popularity.record([`/yesterday/${hour}/${i}`], true);
    }
    setup.calendar.ms = todayAtUtc(12);
    for (let i = 0; i < askedToday; i++) setup.popularity.record([`/today/${i}`], true);
    return setup;
  };
  // 600 first touches paced a day (1,000 less the refresh allowance of 400), and the burst.
  const dayPaced = 600 + BURST;
  // Asked as much as yesterday so far: 1,200 more expected, past what is left; a record asked
  // once waits for its line (half the day's demand passed, 70 % and more of it theirs, half the burst).
  const busy = noonAfterAnEvenDay(1_200);
  expect((await firstTouchesUntilRefused(busy.allocator, '/once')).allowed).toBe(
    Math.floor(600 * 0.5 * (0.7 + 0.3 * 0.5) + BURST / 2),
  );
  // A twentieth of yesterday so far: 60 more expected. Anything asked goes through, past the
  // line, as long as the calls left would still cover DEMAND_MARGIN of those 60.
  const quiet = noonAfterAnEvenDay(60);
  expect((await firstTouchesUntilRefused(quiet.allocator, '/once')).allowed).toBe(
    dayPaced - DEMAND_MARGIN * 60 + 1,
  );
});

it('on a first day, lets every first touch through once the calls left cover twice the last hour’s rate to midnight', async () => {
  /** A new deployment's first day, at 10:30, after a morning burst of `burst` asks an hour and `since` asks an hour from 09:00. */
  const afterABurst = (burst: number, since: number) => {
    const setup = economy(todayAtUtc(6));
    const askAt = (hour: number, count: number) => {
      setup.calendar.ms = todayAtUtc(hour) + 1_800_000;
      for (let i = 0; i < count; i++) setup.popularity.record([`/${hour}/${i}`], true);
    };
    for (const hour of [6, 7, 8]) askAt(hour, burst);
    askAt(9, since);
    askAt(10, since / 2);
    setup.calendar.ms = todayAtUtc(10) + 1_800_000;
    return setup;
  };
  // A first day paces 988 first touches (1,000 less the head's 12 of the refresh allowance of
  // 400) by the clock. Past the burst, 20 asks an hour: at twice that to midnight, 540 more are
  // expected, and the 996 paced calls left (the burst's 8 included) cover DEMAND_MARGIN of them:
  // anything asked goes through while they do.
  const quiet = afterABurst(300, 20);
  expect((await firstTouchesUntilRefused(quiet.allocator, '/once')).allowed).toBe(
    Math.floor(988 + BURST - DEMAND_MARGIN * FIRST_DAY_GROWTH * 20 * 13.5) + 1,
  );
  // Still asking 300 an hour: the clock's line, for a record asked once 70 % and more of it.
  const busy = afterABurst(300, 300);
  const progress = 10.5 / 24;
  expect((await firstTouchesUntilRefused(busy.allocator, '/once')).allowed).toBe(
    Math.floor(988 * progress * (0.7 + 0.3 * progress) + BURST / 2),
  );
});
