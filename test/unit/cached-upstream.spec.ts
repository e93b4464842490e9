/**
 * CachedUpstream alone (src/reads/): built as the gateway builds it, with a
 * real UpstreamClient over HTTP to the simulator and the in-process stores,
 * but with no GraphQL in front. The simulator's call log counts what reached
 * the upstream. Every clock the stores and the simulator read is fixed, so
 * no result depends on the day the test runs; freshness is waited for as a
 * condition, never as a delay.
 */
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/memory-cache.js';
import { LocalCircuitBreaker } from '../../src/coordination/local-circuit-breaker.js';
import { LocalFlightLocks } from '../../src/coordination/memory-flight-locks.js';
import { MemoryKeyRegistry } from '../../src/coordination/memory-key-registry.js';
import { Allocator } from '../../src/economy/allocator.js';
import { MemoryBudgetLedger } from '../../src/economy/memory-ledger.js';
import { MemoryPopularity } from '../../src/economy/memory-popularity.js';
import { LIKELY_READ_TODAY } from '../../src/economy/popularity.js';
import { DEFAULT_HEAD_SHARE, defaultBurst, SpendingPlan } from '../../src/economy/spending-plan.js';
import { GenerationView } from '../../src/freshness/generation.js';
import { CachedUpstream } from '../../src/reads/cached-upstream.js';
import { serverCaller } from '../../src/reads/caller.js';
import type { CachePolicy } from '../../src/reads/entries.js';
import { backgroundReads } from '../../src/reads/request-spending.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { endpoints } from '../../src/upstream/endpoints.js';
import { UpstreamError } from '../../src/upstream/errors.js';
import { UpstreamNotices } from '../../src/upstream/upstream-notices.js';
import { todayAtUtc } from '../support/calendar.js';
import { TEST_CLIENT_OPTIONS } from '../support/stack.js';
import { until } from '../support/until.js';

const KEY = 'unit-server-key';
const caller = serverCaller(KEY);
/** Today's noon (UTC), held still: the budget's day and the simulator's, whatever hour the test runs at. */
const NOW = new Date(todayAtUtc(12));
const now = () => NOW;
const NEXT_MIDNIGHT = new Date(todayAtUtc(24)).toISOString();

const LONG_POLICY: CachePolicy = { ttlMs: 60_000, notFoundTtlMs: 10_000, retentionMs: 600_000 };

interface Setup {
  readonly cachePolicy?: CachePolicy;
  readonly dailyLimit?: number;
  /** The day's plan (the gateway's own key) and the data generation, as `npm start` has them. */
  readonly planned?: { readonly popularity: MemoryPopularity; readonly generation: GenerationView };
  /** How long a slow call is waited for before a held entry answers; longer than any test by default. */
  readonly staleGraceMs?: number;
}

interface Running {
  readonly simulator: Simulator;
  readonly upstream: CachedUpstream;
  readonly cache: MemoryCache;
  readonly budget: MemoryBudgetLedger;
  /** A slug the simulator knows. */
  readonly slug: string;
  /** Calls that reached the simulator, whatever it answered. */
  calls(): number;
}

const closers: (() => Promise<void>)[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function start({
  cachePolicy = LONG_POLICY,
  dailyLimit = 1_000,
  planned,
  staleGraceMs = 30_000,
}: Setup = {}) {
  const simulator = await startSimulator({ apiKeys: [KEY], dailyLimit: 1_000_000, now });
  const client = new UpstreamClient({ baseUrl: simulator.url, ...TEST_CLIENT_OPTIONS });
  closers.push(async () => {
    await client.close();
    await simulator.close();
  });
  const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 });
  const budget = new MemoryBudgetLedger({ dailyLimit, clientShare: 1, now });
  const upstream = new CachedUpstream({
    client,
    cache,
    budget,
    keys: new MemoryKeyRegistry(),
    locks: new LocalFlightLocks(),
    cachePolicy,
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    deadlineMs: 10_000,
    notices: new UpstreamNotices(pino({ level: 'silent' })),
    // Out of the way: these tests are about the cache, not the breaker.
    circuit: new LocalCircuitBreaker({ failureThreshold: 1_000, openMs: 30_000 }),
    // By default longer than any test: a stale answer then comes from a failure, never from a slow call.
    staleGraceMs,
    ...(planned === undefined
      ? {}
      : {
          ...planned,
          allocator: new Allocator(
            new SpendingPlan({
              dailyLimit,
              pollIntervalMs: undefined,
              headShare: DEFAULT_HEAD_SHARE,
              burst: defaultBurst(dailyLimit),
            }),
            planned.popularity,
            budget,
            now,
          ),
        }),
  });
  const slug = simulator.data.allArtists()[0]?.slug;
  if (slug === undefined) throw new Error('the simulator has no artists');
  return {
    simulator,
    upstream,
    cache,
    budget,
    slug,
    calls: () => simulator.calls.length,
  } satisfies Running;
}

/** The error `promise` rejects with (fails the test when it resolves). */
async function failureOf(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (!(error instanceof UpstreamError)) throw new Error(`expected an UpstreamError: ${error}`);
  return error;
}

describe('CachedUpstream', () => {
  it('answers a second read from the cache, with no call', async () => {
    const { upstream, simulator, slug, calls } = await start();
    const request = endpoints.artist(slug);

    const first = backgroundReads();
    const read = await upstream.read(request, caller, first);
    expect(read.slug).toBe(slug);
    expect(read.name).toBe(simulator.data.artistBySlug(slug)?.name);
    expect(first.report.upstreamCalls).toBe(1);
    expect(calls()).toBe(1);

    const second = backgroundReads();
    expect(await upstream.read(request, caller, second)).toEqual(read);
    expect(second.report.cacheHits).toBe(1);
    expect(second.report.upstreamCalls).toBe(0);
    // Answered as current: not a held answer with a refresh behind it.
    expect(second.report.oldestRead).toBeUndefined();
    expect(upstream.inFlight).toBe(0);
    expect(calls()).toBe(1);
  });

  it('makes one call for reads of the same record under way together', async () => {
    const { upstream, simulator, slug, calls } = await start();
    const request = endpoints.artist(slug);
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    simulator.injectFault({ kind: 'hold', until: held }, { path: request.key, times: 1 });

    const readers = Array.from({ length: 5 }, () => backgroundReads());
    const reads = readers.map((stats) => upstream.read(request, caller, stats));
    const joined = () => readers.reduce((sum, stats) => sum + stats.report.deduplicated, 0);
    // Every read is waiting on the one call, which the simulator holds.
    await until(() => calls() === 1 && joined() === readers.length - 1);
    expect(upstream.inFlight).toBe(1);
    release();

    const answers = await Promise.all(reads);
    expect(new Set(answers.map((answer) => answer.slug))).toEqual(new Set([slug]));
    expect(calls()).toBe(1);
    expect(readers.reduce((sum, stats) => sum + stats.report.upstreamCalls, 0)).toBe(1);
    expect(upstream.inFlight).toBe(0);
  });

  it('answers from a stale entry when the upstream fails, and fails without one', async () => {
    const { upstream, simulator, cache, slug, calls } = await start({
      cachePolicy: { ttlMs: 1, notFoundTtlMs: 1, retentionMs: 600_000 },
    });
    const request = endpoints.artist(slug);
    const read = await upstream.read(request, caller, backgroundReads());
    const stored = await cache.get(request.key);
    expect(stored?.staleUntil).toBeGreaterThan(Date.now());
    await until(() => Date.now() > (stored?.freshUntil ?? Number.POSITIVE_INFINITY), 0);

    simulator.injectFault({ kind: 'status', status: 500 });
    const stats = backgroundReads();
    expect(await upstream.read(request, caller, stats)).toEqual(read);
    expect(stats.report.stale).toEqual([
      expect.objectContaining({ resource: 'artist', key: request.key }),
    ]);
    // Both attempts went out and failed: the stale entry answered the failure, not a slow call.
    expect(stats.report.upstreamCalls).toBe(2);
    expect(simulator.calls.slice(1).map((call) => call.status)).toEqual([500, 500]);
    expect(upstream.inFlight).toBe(0);

    const other = simulator.data.allArtists()[1]?.slug ?? '';
    const error = await failureOf(
      upstream.read(endpoints.artist(other), caller, backgroundReads()),
    );
    expect(error.code).toBe('UPSTREAM_ERROR');
    expect(calls()).toBe(5);
  });

  it('keeps a not-found answer for its TTL, then asks again', async () => {
    const notFoundTtlMs = 2_000;
    const { upstream, cache, calls } = await start({
      cachePolicy: { ...LONG_POLICY, notFoundTtlMs },
    });
    const request = endpoints.artist('no-such-artist');

    expect((await failureOf(upstream.read(request, caller, backgroundReads()))).code).toBe(
      'NOT_FOUND',
    );
    expect(calls()).toBe(1);
    const stored = await cache.get(request.key);
    expect(stored?.outcome).toBe('not-found');
    expect((stored?.freshUntil ?? 0) - (stored?.storedAt ?? 0)).toBe(notFoundTtlMs);
    // Unlike a record, never held past its TTL: nothing stale can answer for it.
    expect(stored?.staleUntil).toBe(stored?.freshUntil);

    const again = backgroundReads();
    expect((await failureOf(upstream.read(request, caller, again))).code).toBe('NOT_FOUND');
    expect(again.report.cacheHits).toBe(1);
    expect(calls()).toBe(1);
    expect(await upstream.knownMissing(request, caller, backgroundReads())).toBe(true);

    await until(async () => !(await upstream.knownMissing(request, caller, backgroundReads())));
    expect((await failureOf(upstream.read(request, caller, backgroundReads()))).code).toBe(
      'NOT_FOUND',
    );
    expect(calls()).toBe(2);
  });

  it('refuses a read the day cannot afford when nothing is held, with no call', async () => {
    const { upstream, budget, simulator, slug, calls } = await start({ dailyLimit: 1 });
    const spent = endpoints.artist(slug);
    await upstream.read(spent, caller, backgroundReads());
    expect(calls()).toBe(1);
    expect((await budget.usage(caller.keyId)).remaining).toBe(0);

    const other = simulator.data.allArtists()[1]?.slug ?? '';
    const stats = backgroundReads();
    const error = await failureOf(upstream.read(endpoints.artist(other), caller, stats));
    expect(error.code).toBe('RATE_LIMITED');
    expect(error.resetsAt).toBe(NEXT_MIDNIGHT);
    expect(stats.report.upstreamCalls).toBe(0);
    expect(stats.report.stale).toEqual([]);
    expect(calls()).toBe(1);

    // What the day already paid for still answers.
    const cached = backgroundReads();
    expect((await upstream.read(spent, caller, cached)).slug).toBe(slug);
    expect(cached.report.cacheHits).toBe(1);
    expect(calls()).toBe(1);
  });

  it('answers a popular record two generations behind from what it holds once its refresh outlasts the grace, flagged stale', async () => {
    const popularity = new MemoryPopularity(now);
    const generation = new GenerationView();
    const staleGraceMs = 200;
    const { upstream, simulator, slug, calls, cache } = await start({
      planned: { popularity, generation },
      staleGraceMs,
    });
    const request = endpoints.artist(slug);
    // Asked often enough to be read again today: the most popular record, one the plan keeps.
    for (let ask = 0; ask < LIKELY_READ_TODAY; ask += 1) popularity.record([request.key]);
    await upstream.read(request, caller, backgroundReads());
    expect(calls()).toBe(1);

    // Two generations on, the held profile is refreshed first, and waited for at most the grace.
    generation.learn({ id: 2, seenAt: NOW.toISOString() });
    let release = () => {};
    simulator.injectFault(
      { kind: 'hold', until: new Promise<void>((resolve) => (release = resolve)) },
      { path: request.key, times: 1 },
    );
    const slow = backgroundReads();
    const started = performance.now();
    expect((await upstream.read(request, caller, slow)).slug).toBe(slug);
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(staleGraceMs - 5);
    expect(slow.report.stale).toEqual([
      expect.objectContaining({ resource: 'artist', key: request.key }),
    ]);
    // The call goes on, and its answer refreshes the cache when it lands.
    release();
    await until(async () => (await cache.get(request.key))?.generation === 2);
    const after = backgroundReads();
    await upstream.read(request, caller, after);
    expect(after.report.stale).toEqual([]);
    expect(after.report.upstreamCalls).toBe(0);
    expect(calls()).toBe(2);
  });

  it("sends a reader's refresh ahead of the sweep's queued refreshes", async () => {
    const popularity = new MemoryPopularity(now);
    const generation = new GenerationView();
    const { upstream, simulator, calls } = await start({
      planned: { popularity, generation },
      staleGraceMs: 5_000,
    });
    const requests = simulator.data
      .allArtists()
      .slice(0, 60)
      .map((artist) => endpoints.artist(artist.slug));
    // The last is asked least: the sweep, most asked first, refreshes it last.
    for (const [index, request] of requests.entries()) {
      const asks = LIKELY_READ_TODAY + (index === requests.length - 1 ? 0 : 5);
      for (let ask = 0; ask < asks; ask += 1) popularity.record([request.key]);
      await upstream.read(request, caller, backgroundReads());
    }
    expect(calls()).toBe(60);
    // Two generations on, every kept record is owed a refresh; each takes a while to answer.
    generation.learn({ id: 2, seenAt: NOW.toISOString() });
    simulator.setLatency(300);
    const sweep = upstream.refreshPopular(caller);
    // The sweep's calls fill the background lane and queue behind it.
    await until(() => calls() > 60);
    const last = requests[requests.length - 1];
    if (last === undefined) throw new Error('no requests');
    const reader = backgroundReads();
    await upstream.read(last, caller, reader);
    // Answered by a call of its own that went ahead of the queued sweep, not from the held entry.
    expect(reader.report.stale).toEqual([]);
    const sweptBefore = simulator.calls.slice(60).findIndex((call) => call.rawPath === last.key);
    expect(sweptBefore).toBeLessThan(24);
    simulator.setLatency(0);
    await sweep;
  });

  it('sweeps the kept records at a new generation with their checks under way together', async () => {
    const popularity = new MemoryPopularity(now);
    const generation = new GenerationView();
    const { upstream, simulator, calls } = await start({
      planned: { popularity, generation },
    });
    const requests = simulator.data
      .allArtists()
      .slice(0, 40)
      .map((artist) => endpoints.artist(artist.slug));
    for (const request of requests) {
      // Asked often enough to be read again today: the sweep owes each a refresh once two behind.
      for (let ask = 0; ask < LIKELY_READ_TODAY; ask += 1) popularity.record([request.key]);
      await upstream.read(request, caller, backgroundReads());
    }
    expect(calls()).toBe(40);

    generation.learn({ id: 2, seenAt: NOW.toISOString() });
    // Each check's count waits a turn of the event loop, as a Redis read would; only the sweep's
    // checks count (a refresh's own reads do not).
    let checking = 0;
    let mostAtOnce = 0;
    const count = popularity.count.bind(popularity);
    popularity.count = async (key) => {
      checking += 1;
      mostAtOnce = Math.max(mostAtOnce, checking);
      await new Promise((resolve) => setImmediate(resolve));
      checking -= 1;
      return count(key);
    };

    expect(await upstream.refreshPopular(caller)).toBe(40);
    expect(mostAtOnce).toBeGreaterThan(1);
    expect(mostAtOnce).toBeLessThanOrEqual(16);
    expect(calls()).toBe(80);
    // Every one is current again: read now, none calls.
    for (const request of requests) {
      const stats = backgroundReads();
      await upstream.read(request, caller, stats);
      expect(stats.report.upstreamCalls).toBe(0);
      expect(stats.report.oldestRead).toBeUndefined();
    }
    expect(calls()).toBe(80);
  });
});
