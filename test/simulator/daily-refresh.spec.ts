/**
 * The simulator's daily refresh (refreshHourUtc): the data day follows the
 * `now` clock, the previous day's until the hour; each refresh adds a day of
 * streams and new ids at the head of the recent milestones.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';
import { utcDay } from '../../src/time.js';
import { DAY_MS, todayAtUtc } from '../support/calendar.js';
import { DATA_DATE, get, start } from '../support/simulator.js';

const HOUR = 3_600_000;
/** Today's midnight (UTC) on the real calendar: the simulator's clock, whatever day the test runs. */
const DAY_START = todayAtUtc(0);
const TODAY = utcDay(new Date(DAY_START));
const YESTERDAY = utcDay(new Date(DAY_START - DAY_MS));

let sim: Simulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

interface Page {
  data: { id: string; crossedAt: string }[];
}

describe('daily refresh', () => {
  it('keeps the data of the day before until the refresh hour, then moves on with new milestones', async () => {
    let now = DAY_START + 2 * HOUR;
    sim = await start({
      dataDate: undefined,
      artists: 200,
      refreshHourUtc: 3,
      now: () => new Date(now),
    });
    const slug = sim.data.allArtists()[0]?.slug ?? '';
    expect(sim.data.dataDate).toBe(YESTERDAY);
    const before = await get<Page>(sim, '/api/v1/milestones/recent?limit=5');
    const total = (await get<{ totalStreams: number }>(sim, `/api/v1/artists/${slug}`)).body
      .totalStreams;

    now = DAY_START + 3 * HOUR;
    const after = await get<Page>(sim, '/api/v1/milestones/recent?limit=5');
    expect(sim.data.dataDate).toBe(TODAY);
    const newIds = after.body.data
      .map((m) => m.id)
      .filter((id) => !before.body.data.some((m) => m.id === id));
    expect(newIds.length).toBeGreaterThan(0);
    expect(after.body.data[0]?.crossedAt).toBe(TODAY);
    const profile = await get<{ totalStreams: number }>(sim, `/api/v1/artists/${slug}`);
    expect(profile.body.totalStreams).toBeGreaterThan(total);
    const history = await get<{ date: string; totalStreams: number }[]>(
      sim,
      `/api/v1/artists/${slug}/history`,
    );
    expect(history.body.at(-1)).toMatchObject({
      date: TODAY,
      totalStreams: profile.body.totalStreams,
    });
    expect(sim.data.totalsOf(slug)?.map((entry) => entry.dataDate)).toEqual([YESTERDAY, TODAY]);
  });

  it('without refreshHourUtc the data stays at its date', async () => {
    let now = DAY_START;
    sim = await start({ artists: 50, now: () => new Date(now) });
    now += 3 * 24 * HOUR;
    await get(sim, '/api/v1/milestones/recent');
    expect(sim.data.dataDate).toBe(DATA_DATE);
  });

  it('refuses a refresh hour outside 0-23', async () => {
    await expect(start({ refreshHourUtc: 24 })).rejects.toThrow(
      'refreshHourUtc must be an integer between 0 and 23: 24',
    );
  });
});
