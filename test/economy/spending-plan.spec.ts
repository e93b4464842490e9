/**
 * The day's plan as arithmetic: what each purpose may spend at a
 * given moment of the UTC day. The ledger tests check that the ceilings are
 * enforced across replicas; these check the ceilings themselves.
 */
import { describe, expect, it } from 'vitest';
import { DayShape, MOST_YESTERDAY_WEIGHT, YESTERDAY_WEIGHT } from '../../src/economy/day-shape.js';
import {
  demandLeft,
  demandLeftFromToday,
  FIRST_DAY_GROWTH,
} from '../../src/economy/demand-forecast.js';
import { AHEAD_SHARE, DEMAND_MARGIN, SpendingPlan } from '../../src/economy/spending-plan.js';
import { TodaysSweep } from '../../src/economy/todays-sweep.js';
import { DAY_MS, todayAtUtc } from '../support/calendar.js';

const HOUR_MS = 60 * 60 * 1000;
/** The UTC days the plan is reckoned on: today's, from the real calendar, and its neighbours. */
const dayOf = (offset: number) =>
  new Date(todayAtUtc(0) + offset * DAY_MS).toISOString().slice(0, 10);
const TODAY = dayOf(0);
const YESTERDAY = dayOf(-1);
const TOMORROW = dayOf(1);
const plan = new SpendingPlan({
  dailyLimit: 1000,
  pollIntervalMs: HOUR_MS,
  headShare: 0.4,
  burst: 20,
});
const at = (time: string) => new Date(`${TODAY}T${time}Z`);
const spent = (overrides: Partial<Record<'used' | 'paced' | 'refreshed' | 'polled', number>>) => ({
  used: 0,
  paced: 0,
  refreshed: 0,
  polled: 0,
  ...overrides,
});

describe('the spending plan of a 1,000-call day with an hourly poll', () => {
  it('reserves 24 polls and a refresh allowance of 390; 586 first touches are paced over the day', () => {
    expect(plan.pollsPerDay).toBe(24);
    expect(plan.refreshAllowance).toBe(390);
    // At 06:00 a record asked again may buy ahead of the day's quarter by AHEAD_SHARE of it, plus the burst.
    expect(plan.ceiling('first-touch', at('06:00:00'), spent({}), true)).toEqual({
      counter: 'paced',
      total: 1000 - 18 - 390,
      limit: Math.floor(586 * (0.25 + AHEAD_SHARE) + 20),
    });
    // A record asked once: 70 % of the paced part at midnight, rising to all of it by the end.
    expect(plan.ceiling('first-touch', at('06:00:00'), spent({}), false).limit).toBe(
      Math.floor(586 * 0.25 * (0.7 + 0.3 * 0.25) + 10),
    );
  });

  it('refreshes at once, up to the records kept current, keeping the polls still to come', () => {
    // Of the allowance of 390: the head of 11 records each generation, up to 741 every other one.
    expect(plan.headRecords).toBe(11);
    expect(plan.keptRecords).toBe(741);
    expect(plan.ceiling('refresh', at('04:00:00'), spent({ polled: 4 }), true)).toEqual({
      counter: 'refreshed',
      total: 1000 - 20,
      limit: 741,
    });
    // Past that on one day, further refreshes wait their turn with the first touches.
    expect(plan.ceiling('refresh', at('04:00:00'), spent({ refreshed: 741 }), true).counter).toBe(
      'paced',
    );
  });

  it('gives the poll its share and no more', () => {
    expect(plan.ceiling('poll', at('12:00:00'), spent({ used: 999 }), true)).toEqual({
      counter: 'polled',
      total: 1000,
      limit: 24,
    });
    const eager = new SpendingPlan({
      dailyLimit: 200,
      pollIntervalMs: 2_000,
      headShare: 0.4,
      burst: 8,
    });
    expect(eager.pollsPerDay).toBe(50);
  });

  it('releases the unspent refresh allowance to first touches over the last quarter of the day, but for the late refreshes', () => {
    // 290 unspent, of which 10 (1 % of the day) are kept for refreshes of popular records read late.
    const evening = plan.ceiling('first-touch', at('21:00:00'), spent({ refreshed: 100 }), false);
    const released = (390 - 100 - 10) * 0.5;
    expect(evening.limit).toBe(Math.floor(586 * 0.875 * (0.7 + 0.3 * 0.875) + 10 + released));
    expect(evening.total).toBe(1000 - 3 - (390 - 100 - released));
    // The allowance spent, first touches still leave those 10 to the refreshes...
    const spentAll = spent({ refreshed: 400 });
    expect(plan.ceiling('first-touch', at('22:00:00'), spentAll, true).total).toBe(1000 - 2 - 10);
    // ...until the day's last 5 % of demand (from 22:48 on an even day), when they become the
    // first touches' too: a minute before midnight, all but the last poll.
    expect(plan.ceiling('first-touch', at('23:24:00'), spentAll, true).total).toBe(1000 - 1 - 5);
    expect(plan.ceiling('first-touch', at('23:59:00'), spentAll, true).total).toBe(1000 - 1);
    // Unspent allowance: all but the last poll and the release's last minute (under one call).
    const last = plan.ceiling('first-touch', at('23:59:00'), spent({ refreshed: 100 }), true);
    expect(last.total).toBe(1000 - 1 - 1);
    // A refresh may use them.
    expect(plan.ceiling('refresh', at('23:59:00'), spent({ refreshed: 100 }), true).total).toBe(
      1000 - 1,
    );
  });

  it('once today’s sweep is over, releases at once the allowance the refreshes’ pace since will not need', () => {
    const sweep = new TodaysSweep();
    const afterSweep = new SpendingPlan({
      dailyLimit: 1000,
      pollIntervalMs: HOUR_MS,
      headShare: 0.4,
      burst: 20,
      sweptToday: (now) => sweep.of(now),
    });
    // Yesterday's sweep tells nothing of today's pace.
    sweep.ended({ at: new Date(`${YESTERDAY}T03:00:00Z`), refreshed: 300 });
    const unswept = afterSweep.ceiling(
      'first-touch',
      at('12:00:00'),
      spent({ refreshed: 100 }),
      true,
    );
    expect(unswept.limit).toBe(Math.floor(586 + 20));
    expect(unswept.total).toBe(1000 - 12 - 290);
    // The sweep ended at 03:00 (an eighth of an even day) with 80 refreshes; by noon 20 more,
    // so 20 · 0.5 / 0.375 to come and a quarter over that, 34. Of the 290 unspent, the 10 kept
    // for late refreshes and those 34 stay; 246 go at once. Counted from midnight, the sweep's 80
    // would have made it 125 to come, and 155 released.
    sweep.ended({ at: at('03:00:00'), refreshed: 80 });
    const noon = afterSweep.ceiling('first-touch', at('12:00:00'), spent({ refreshed: 100 }), true);
    expect(noon.limit).toBe(Math.floor(586 + 20 + 246));
    expect(noon.total).toBe(1000 - 12 - (390 - 100 - 246));
    // Before the sweep is over, the refreshes it brings are still to come: nothing goes before
    // the day's last quarter, as without the refresh poll's word.
    const before = plan.ceiling('first-touch', at('12:00:00'), spent({ refreshed: 100 }), true);
    expect(before.limit).toBe(Math.floor(586 + 20));
    expect(before.total).toBe(1000 - 12 - 290);
    // Nor before a tenth of the day's demand since the sweep has shown the pace.
    expect(
      afterSweep.ceiling('first-touch', at('05:00:00'), spent({ refreshed: 80 }), true).total,
    ).toBe(1000 - 19 - (390 - 80));
  });

  it('tells a refused first touch when the line passes its count, or midnight when the day cannot', () => {
    const now = at('06:00:00');
    // Paced 459: the line must pass 460, (460 − 20) / 586 − AHEAD_SHARE = 147 / 586 of the day.
    const slot = plan.nextSlot(now, spent({ paced: 459 }), true);
    const expected = Date.parse(`${TODAY}T00:00:00Z`) + Math.ceil((147 / 586) * 24 * HOUR_MS);
    expect(slot.getTime()).toBe(expected);
    expect(slot.getTime()).toBeGreaterThan(now.getTime());
    expect(plan.nextSlot(now, spent({ paced: 2_000 }), true).toISOString()).toBe(
      `${TOMORROW}T00:00:00.000Z`,
    );
  });
});

describe('the polls a day really has', () => {
  // A 4 s timer: by the interval, 21,600 polls a day, capped at a quarter of it (250).
  const eager = new SpendingPlan({
    dailyLimit: 1000,
    pollIntervalMs: 4_000,
    headShare: 0.4,
    burst: 20,
  });

  it('before two polls, reserves what the interval implies', () => {
    expect(eager.pollsPerDay).toBe(250);
    expect(eager.refreshAllowance).toBe(300);
    const morning = eager.ceiling('first-touch', at('01:00:00'), spent({ polled: 1 }), true);
    expect(morning.total).toBe(1000 - 249 - 300);
    expect(morning.limit).toBe(Math.floor(450 * (1 / 24 + AHEAD_SHARE) + 20));
  });

  it('once today has polled on a slower cadence (a calendar ahead of the timers), reserves what that cadence needs and paces the rest', () => {
    // Eleven polls by noon, on the calendar: eleven more to come, and one for the phase.
    const noon = eager.ceiling(
      'first-touch',
      at('12:00:00'),
      spent({ polled: 11, used: 11 }),
      true,
    );
    // The refresh tiers follow: an allowance of 0.4 × (1,000 − 23) = 390, not the interval's 300.
    const tiers = eager.tiers(at('12:00:00'), spent({ polled: 11, used: 11 }));
    expect(tiers).toEqual({ refreshAllowance: 390, headRecords: 11, keptRecords: 741 });
    const paced = 1000 - (11 + 12) - 390;
    expect(noon.total).toBe(1000 - 12 - 390);
    expect(noon.limit).toBe(Math.floor(paced * (0.5 + AHEAD_SHARE) + 20));
    // The day's reserve for polls is spent by the polls that come, not held until midnight.
    const late = eager.ceiling(
      'first-touch',
      at('23:00:00'),
      spent({ polled: 22, used: 22 }),
      true,
    );
    expect(late.total).toBeGreaterThanOrEqual(1000 - 2 - Math.ceil(390 / 3));
  });

  it('an hourly poll keeping its hours reserves as before', () => {
    // Seven polls by 06:00 (midnight's included): the seventeen left of the 24.
    expect(plan.ceiling('first-touch', at('06:00:00'), spent({ polled: 7 }), true)).toEqual({
      counter: 'paced',
      total: 1000 - 17 - 390,
      limit: Math.floor(586 * (0.25 + AHEAD_SHARE) + 20),
    });
  });
});

describe('a client’s share of the first touches', () => {
  const shared = new SpendingPlan({ ...plan.options, clientShare: 0.5 });

  it('is half of the first touches paced so far, never less than the burst', () => {
    // 06:00: the line is 586 / 4 + 20 = 166; a client may make 83 of them, whatever the record.
    expect(shared.ceiling('first-touch', at('06:00:00'), spent({}), false).clientLimit).toBe(83);
    expect(shared.ceiling('first-touch', at('06:00:00'), spent({}), true).clientLimit).toBe(83);
    // Just after midnight the line is the burst alone: one client may still take all of it.
    expect(shared.ceiling('first-touch', at('00:00:01'), spent({}), true).clientLimit).toBe(20);
    // Refreshes and polls are the deployment's, not a client's; without a share, no cap.
    expect(shared.ceiling('refresh', at('06:00:00'), spent({}), true).clientLimit).toBeUndefined();
    expect(
      plan.ceiling('first-touch', at('06:00:00'), spent({}), true).clientLimit,
    ).toBeUndefined();
  });

  it('tells a client over its share when the line has moved far enough for one more', () => {
    // 83 made at 06:00 (a line of 166.5): 84 needs a line of 168, 1.5/586 of a day later.
    const slot = shared.nextClientSlot(at('06:00:00'), spent({ paced: 100 }), 83);
    expect(slot.getTime()).toBe(at('06:00:00').getTime() + Math.ceil((1.5 / 586) * 86_400_000));
    expect(shared.ceiling('first-touch', slot, spent({ paced: 100 }), true).clientLimit).toBe(84);
  });
});

describe('a day paced by its expected demand', () => {
  // Yesterday: a morning burst, 40 records asked in each hour from 06:00 to 09:00 and 1 in each other.
  const morning = DayShape.fromYesterday(
    Array.from({ length: 24 }, (_, hour) => (hour >= 6 && hour < 9 ? 40 : 1)),
  );
  const share = (demand: number, clock: number) =>
    YESTERDAY_WEIGHT * demand + (1 - YESTERDAY_WEIGHT) * clock;

  it('follows yesterday’s demand, blended with the clock', () => {
    // By 09:00 yesterday had seen 126 of its 141 records asked: the line is most of the way up,
    // and past three quarters of the day's demand the unspent refresh allowance starts to flow.
    // (A record asked once: the line itself, without the lead a record asked again has.)
    const nine = plan.ceiling('first-touch', at('09:00:00'), spent({}), false, morning);
    const passed = share(126 / 141, 9 / 24);
    const released = 390 * ((passed - 0.75) / 0.25);
    expect(nine.limit).toBe(Math.floor(586 * passed * (0.7 + 0.3 * passed) + 10 + released));
    expect(nine.limit).toBeGreaterThan(
      plan.ceiling('first-touch', at('09:00:00'), spent({}), false).limit * 2,
    );
    // A record asked again may buy the rest of the day's paced calls by then.
    expect(plan.ceiling('first-touch', at('09:00:00'), spent({}), true, morning).limit).toBe(
      Math.floor(586 + 20 + released),
    );
    // Half an hour into the burst: the line is interpolated within the hour.
    expect(morning.progress(6.5 / 24)).toBeCloseTo(share(26 / 141, 6.5 / 24), 10);
  });

  it('tells a refused first touch when the expected demand lets the line reach it', () => {
    const now = at('06:00:00');
    const slot = plan.nextSlot(now, spent({ paced: 400 }), true, 1, morning);
    // The line must pass 401: a progress of (401 − 20) / 586 − AHEAD_SHARE, reached in the
    // burst's first hour (for a record asked once, without the lead, in its last).
    expect(
      morning.progress((slot.getTime() - Date.parse(`${TODAY}T00:00:00Z`)) / 86_400_000),
    ).toBeCloseTo(381 / 586 - AHEAD_SHARE, 4);
    expect(slot.toISOString() > `${TODAY}T06:00:00.000Z`).toBe(true);
    expect(slot.toISOString() < `${TODAY}T07:00:00.000Z`).toBe(true);
    const once = plan.nextSlot(now, spent({ paced: 400 }), false, 1, morning);
    expect(once.toISOString() > `${TODAY}T08:00:00.000Z`).toBe(true);
    expect(once.toISOString() < `${TODAY}T09:00:00.000Z`).toBe(true);
  });

  it('takes more of yesterday the more it was like the day before', () => {
    const burst = Array.from({ length: 24 }, (_, hour) => (hour >= 6 && hour < 9 ? 40 : 1));
    const nine = 9 / 24;
    const burstBy9 = 126 / 141;
    // The same burst two days running: the clock keeps only its least share.
    expect(DayShape.fromYesterday(burst, burst).progress(nine)).toBeCloseTo(
      MOST_YESTERDAY_WEIGHT * burstBy9 + (1 - MOST_YESTERDAY_WEIGHT) * nine,
      10,
    );
    // A tenth of the day before's demand came at other hours: the clock keeps a tenth.
    const shifted = burst.map((count, hour) =>
      hour === 6 ? count - 14.1 : hour === 20 ? count + 14.1 : count,
    );
    expect(DayShape.fromYesterday(burst, shifted).progress(nine)).toBeCloseTo(
      0.9 * burstBy9 + 0.1 * nine,
      10,
    );
    // An evening the day before, or no demand to compare: a quarter, as without a day before.
    const evening = Array.from({ length: 24 }, (_, hour) => (hour >= 18 ? 40 : 1));
    for (const dayBefore of [evening, new Array(24).fill(0), undefined])
      expect(DayShape.fromYesterday(burst, dayBefore).progress(nine)).toBeCloseTo(
        YESTERDAY_WEIGHT * burstBy9 + (1 - YESTERDAY_WEIGHT) * nine,
        10,
      );
  });

  it('without a yesterday to learn from, is the clock’s line; with hostile counts, no worse', () => {
    expect(DayShape.fromYesterday(undefined).progress(0.3)).toBeCloseTo(0.3, 10);
    const hostile = DayShape.fromYesterday([Number.NaN, -5, Number.POSITIVE_INFINITY, 3]);
    expect(hostile.firstDay).toBe(false);
    expect(hostile.progress(0)).toBe(0);
    expect(hostile.progress(1)).toBe(1);
    for (let hour = 0; hour < 24; hour += 1)
      expect(hostile.progress((hour + 1) / 24)).toBeGreaterThan(hostile.progress(hour / 24));
  });

  it('on a first day (nothing asked yesterday) keeps only the head for refreshes and paces the rest', () => {
    const first = DayShape.fromYesterday(new Array(24).fill(0));
    expect(first.firstDay).toBe(true);
    // 1,000 less 24 polls less the head's 11: 965 paced over the day instead of 586.
    expect(plan.ceiling('first-touch', at('06:00:00'), spent({}), true, first)).toEqual({
      counter: 'paced',
      total: 1000 - 18 - 11,
      limit: Math.floor(965 * (0.25 + AHEAD_SHARE) + 20),
    });
    // Refreshes past the head's share (records read before the upstream's refresh) come out of
    // the paced calls, so the line still lands the day within its limit.
    expect(
      plan.ceiling('first-touch', at('06:00:00'), spent({ refreshed: 60 }), true, first).limit,
    ).toBe(Math.floor(916 * (0.25 + AHEAD_SHARE) + 20));
    // Refreshes still have their own counter, as on any day.
    expect(plan.ceiling('refresh', at('06:00:00'), spent({}), true, first).counter).toBe(
      'refreshed',
    );
  });
});

describe('a day whose calls left cover what the rest of it is expected to ask', () => {
  const flat = new Array<number>(24).fill(10);
  const byHour = (asked: Record<number, number>) =>
    Array.from({ length: 24 }, (_, hour) => asked[hour] ?? 0);

  it('expects the rest of yesterday from this moment on, scaled by today against yesterday so far', () => {
    // By noon yesterday had asked 120 of its 240; today 60: half as many again this afternoon.
    expect(demandLeft(flat, byHour({ 9: 30, 10: 30 }), 0.5)).toBe(60);
    // Within the hour, yesterday's count by then is interpolated: 125 by 12:30, 115 left.
    expect(demandLeft(flat, byHour({ 11: 125 }), 12.5 / 24)).toBeCloseTo(115, 10);
    // Today asking more than yesterday: more expected.
    expect(demandLeft(flat, byHour({ 11: 240 }), 0.5)).toBe(240);
  });

  it('cannot tell before yesterday had asked 50 by then and today 50, or without a yesterday', () => {
    // By 02:00 yesterday had asked 20: too few to tell today's scale by; by 05:00, 50.
    expect(demandLeft(flat, byHour({ 1: 60 }), 2 / 24)).toBeUndefined();
    expect(demandLeft(flat, byHour({ 1: 60 }), 5 / 24)).toBe((60 / 50) * 190);
    // 49 asks today tell nothing; 50 do.
    expect(demandLeft(flat, byHour({ 9: 49 }), 0.5)).toBeUndefined();
    expect(demandLeft(flat, byHour({ 9: 50 }), 0.5)).toBe((50 / 120) * 120);
    expect(demandLeft(new Array(24).fill(0), byHour({ 1: 60 }), 0.5)).toBeUndefined();
  });

  it('on a first day, expects the rest of it at its rate so far, at most twice the last hour’s, once two whole hours show it', () => {
    // 10:30, a morning burst over: 20 asks since 10:00 and 40 in the half of 09:00 within the hour.
    const burst = byHour({ 6: 900, 7: 900, 8: 900, 9: 80, 10: 20 });
    expect(demandLeftFromToday(burst, 10.5 / 24)).toBe(FIRST_DAY_GROWTH * (20 + 40) * 13.5);
    // In the burst, far more than any day's calls: the day's rate since 07:00 (1,800 in an hour
    // and a half), under twice the last hour's.
    const inBurst = byHour({ 6: 900, 7: 900, 8: 900 });
    expect(demandLeftFromToday(inBurst, 8.5 / 24)).toBe((1800 / 1.5) * 15.5);
    // A rising day is expected at its rate so far: a record bought now has the rest of the day
    // to be asked again. Ten an hour since midnight, then forty by 12:30: 150 in 11.5 hours.
    const rising = byHour({
      ...Object.fromEntries(Array.from({ length: 12 }, (_, h) => [h, 10])),
      12: 40,
    });
    expect(demandLeftFromToday(rising, 12.5 / 24)).toBeCloseTo((150 / 11.5) * 11.5, 10);
    // A deployment started at 09:xx has not served a whole last hour by 10:30: its rate is unknown.
    expect(demandLeftFromToday(byHour({ 9: 40, 10: 20 }), 10.5 / 24)).toBeUndefined();
    expect(demandLeftFromToday(byHour({ 0: 10, 1: 10 }), 1.5 / 24)).toBeUndefined();
    // 49 asks in all tell nothing.
    expect(demandLeftFromToday(byHour({ 8: 20, 9: 20, 10: 9 }), 10.5 / 24)).toBeUndefined();
    // Hostile counts are none: ten an hour since 03:00, the first whole hour served.
    expect(demandLeftFromToday([Number.NaN, -1, ...new Array(22).fill(10)], 23 / 24)).toBe(
      210 / 20,
    );
  });

  it('reads a hostile count (negative, not finite) as none', () => {
    const hostile = [Number.NaN, -5, Number.POSITIVE_INFINITY, ...new Array(21).fill(10)];
    const today = [Number.NaN, -1, ...new Array(9).fill(10), Number.NEGATIVE_INFINITY];
    expect(demandLeft(hostile, today, 0.5)).toBe((90 / 90) * 120);
  });

  it('lets every first touch through while the paced calls left cover it, and paces them otherwise', () => {
    const shape = DayShape.fromYesterday(flat);
    const noon = at('12:00:00');
    const paced = spent({ paced: 300, used: 300 });
    // The day paces 586 first touches and the burst of 20; 306 are left.
    const left = 586 + 20 - 300;
    const line = plan.ceiling('first-touch', noon, paced, false, shape).limit;
    expect(line).toBe(Math.floor(586 * 0.5 * (0.7 + 0.3 * 0.5) + 10));
    expect(plan.ceiling('first-touch', noon, paced, false, shape, left / DEMAND_MARGIN).limit).toBe(
      586 + 20,
    );
    // A little more demand than the calls left cover: the line again, the one-timers' and the others'.
    expect(
      plan.ceiling('first-touch', noon, paced, false, shape, left / DEMAND_MARGIN + 1).limit,
    ).toBe(line);
    expect(plan.ceiling('first-touch', noon, paced, true, shape, left / DEMAND_MARGIN + 1)).toEqual(
      plan.ceiling('first-touch', noon, paced, true, shape),
    );
    // Refreshes and polls are not paced: the forecast changes nothing for them.
    expect(plan.ceiling('refresh', noon, paced, true, shape, 0)).toEqual(
      plan.ceiling('refresh', noon, paced, true, shape),
    );
  });
});
