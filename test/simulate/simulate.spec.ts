/**
 * `npm run simulate` at a small scale, over real Redis and real HTTP: what
 * must hold on any gateway (within the day's limit, no 429 from the upstream,
 * every refusal RATE_LIMITED with resetsAt, no other error, one row per day),
 * the per-view calls the clairvoyant reference assumes, the moved clock, the
 * deployment mode (separate processes), the traffic shapes and the option
 * checks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runDeployment } from '../../simulate/deployment.js';
import { installMovedClock, type MovedClock } from '../../simulate/moved-clock.js';
import { DEFAULTS, parseOptions } from '../../simulate/options.js';
import { recordsOf, requestOf } from '../../simulate/pages.js';
import { runSimulation } from '../../simulate/simulation.js';
import { table } from '../../simulate/table.js';
import { type Shape, Traffic, type View } from '../../simulate/traffic.js';
import { type Stack, startStack } from '../support/stack.js';

let clock: MovedClock | undefined;
let stack: Stack | undefined;
afterEach(async () => {
  clock?.restore();
  clock = undefined;
  await stack?.close();
  stack = undefined;
});

describe('npm run simulate', () => {
  it('runs two small days within the limit, with clear refusals only', {
    timeout: 60_000,
  }, async () => {
    const options = { ...DEFAULTS, artists: 400, views: 300, days: 2, replicas: 2, limit: 60 };
    const realDate = Date;
    const result = await runSimulation(options);
    // The run moved the whole process's calendar; it gives the real one back.
    expect(globalThis.Date).toBe(realDate);
    expect(result.rows.map((row) => row.day)).toEqual([1, 2]);
    for (const row of result.rows) {
      expect(row.views).toBe(300);
      expect(row.calls).toBeGreaterThan(0);
      expect(row.calls).toBeLessThanOrEqual(60);
      expect(row.status429).toBe(0);
      expect(row.refusedWithoutResetsAt).toBe(0);
      expect(row.otherErrors, JSON.stringify([...row.otherCodes])).toBe(0);
      expect(row.full + row.refused).toBe(row.views);
    }
    const lines = table(result.rows)
      .split('\n')
      .filter((line) => line.startsWith('|'));
    expect(lines).toHaveLength(2 + result.rows.length);
  });

  it('costs each kind of view the upstream calls the reference counts, on a cold gateway', async () => {
    stack = await startStack({ simulator: { artists: 50 } });
    const slug = stack.simulator.data.allArtists()[7]?.slug ?? '';
    const views: View[] = [
      { at: 0, kind: 'home' },
      { at: 0, kind: 'artist', slug },
      { at: 0, kind: 'chart' },
      { at: 0, kind: 'milestones' },
    ];
    for (const view of views) {
      const { query, variables } = requestOf(view);
      const answer = await stack.query(query, variables);
      expect(answer.body.errors).toBeUndefined();
      const cost = answer.body.extensions?.cost as { upstreamCalls: number };
      expect([view.kind, cost.upstreamCalls]).toEqual([view.kind, recordsOf(view).length]);
    }
  });
});

describe('moved clock', () => {
  it('starts at the next real UTC midnight, only moves forward, and leaves Date otherwise alone', () => {
    const real = Date.now();
    clock = installMovedClock();
    const start = Date.now();
    expect(start % 86_400_000).toBeLessThan(1_000);
    expect(start).toBeGreaterThan(real);
    clock.advanceTo(start + 5 * 3_600_000);
    expect(new Date().getUTCHours()).toBe(5);
    clock.advanceTo(start);
    expect(new Date().getUTCHours()).toBe(5);
    expect(new Date(0).toISOString()).toBe('1970-01-01T00:00:00.000Z');
    expect(Date.UTC(2026, 0, 1)).toBe(Date.parse('2026-01-01T00:00:00Z'));
    expect(new Date() instanceof Date).toBe(true);
    clock.restore();
    clock = undefined;
    expect(Math.abs(Date.now() - real)).toBeLessThan(60_000);
  });
});

describe('options', () => {
  it('deployment mode: separate gateway processes over HTTP, a day within the limit, clear refusals only', {
    timeout: 150_000,
  }, async () => {
    const options = {
      ...DEFAULTS,
      artists: 400,
      views: 300,
      days: 1,
      replicas: 2,
      limit: 60,
      mode: 'deployment' as const,
      // A simulated day in six seconds.
      speed: 14_400,
    };
    const realDate = Date;
    const result = await runDeployment(options);
    expect(globalThis.Date).toBe(realDate);
    const [row] = result.rows;
    expect(row?.views).toBe(300);
    expect(row?.calls).toBeGreaterThan(0);
    expect(row?.calls).toBeLessThanOrEqual(60);
    expect(row?.status429).toBe(0);
    expect(row?.refusedWithoutResetsAt).toBe(0);
    expect(row?.otherErrors, JSON.stringify([...(row?.otherCodes ?? [])])).toBe(0);
    // The day's own figures, read before its midnight (not the next day's zeros), within its calls.
    const byPurpose = row?.byPurpose;
    const counted =
      (byPurpose?.poll ?? 0) + (byPurpose?.refresh ?? 0) + (byPurpose?.firstTouch ?? 0);
    expect(counted).toBeGreaterThan(0);
    expect(counted).toBeLessThanOrEqual(row?.calls ?? 0);
  });

  it('shapes the day: a morning burst, and a crawler walking the long tail once', () => {
    const slugs = Array.from({ length: 1000 }, (_, i) => `artist-${i}`);
    const day = (shape: Shape) => new Traffic({ ...DEFAULTS, views: 2000, shape }, slugs).day(1, 0);
    const inMorning = (views: View[]) =>
      views.filter((view) => view.at >= 6 * 3_600_000 && view.at < 9 * 3_600_000).length;
    expect(inMorning(day('morning'))).toBeGreaterThan(0.8 * 2000);
    expect(inMorning(day('evening'))).toBeLessThan(0.2 * 2000);
    const crawlerTraffic = new Traffic({ ...DEFAULTS, views: 2000, shape: 'crawler' }, slugs);
    const crawled = crawlerTraffic
      .day(1, 0)
      .filter((view) => view.slug !== undefined)
      .map((view) => crawlerTraffic.popularity.indexOf(view.slug as string));
    // A third of the artist views are in the last 40 % of the catalogue; Zipf alone puts 7 % there.
    expect(crawled.filter((rank) => rank >= 600).length).toBeGreaterThan(0.25 * crawled.length);
  });

  it('parses the documented options and refuses bad values with the option named', () => {
    expect(
      parseOptions(['--mode', 'deployment', '--shape', 'crawler', '--speed', '480'], {}),
    ).toMatchObject({
      mode: 'deployment',
      shape: 'crawler',
      speed: 480,
    });
    expect(() => parseOptions(['--shape', 'weekend'], {})).toThrow('--shape must be one of');
    expect(() => parseOptions(['--mode', 'cloud'], {})).toThrow('--mode must be one of');
    expect(parseOptions(['--artists', '400', '--mix', '30,50,10,10'], {})).toMatchObject({
      artists: 400,
      mix: { home: 0.3, artist: 0.5, chart: 0.1, milestones: 0.1 },
    });
    expect(() => parseOptions(['--artists', '20001'], {})).toThrow(
      '--artists must be a whole number from 1 to 20000: 20001',
    );
    expect(() => parseOptions(['--mix', '1,2,3'], {})).toThrow('--mix must be four');
    expect(() => parseOptions(['--days'], {})).toThrow('--days needs a value');
    expect(() => parseOptions(['--bogus', '1'], {})).toThrow('unknown option: --bogus');
    expect(() => parseOptions([], { REDIS_URL: 'http://x' })).toThrow('REDIS_URL must be');
  });
});
