/**
 * The read tables (src/reads/read-table.ts), held three ways: docs/economy.md shows exactly the
 * code's rows; every combination of inputs meets exactly one row; and every combination, set up
 * for real (a held entry in the cache, a record's popularity, an upstream that answers, hangs or
 * fails: the simulator over HTTP), does what its row says, seen from outside: what the read
 * answered, what it reported, and what reached the upstream.
 */
import { readFileSync } from 'node:fs';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MemoryCache } from '../../src/cache/memory-cache.js';
import { keyIdOf } from '../../src/coordination/key-registry.js';
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
import type { Caller } from '../../src/reads/caller.js';
import { ENTRY_KINDS, type EntryKind } from '../../src/reads/entry-state.js';
import { PlanPolicy } from '../../src/reads/read-policy.js';
import {
  ALLOWANCES,
  type Allowance,
  type Cell,
  DAILY_LIMIT_TABLE,
  matches,
  PLAN_TABLE,
  type Place,
  type Row,
} from '../../src/reads/read-table.js';
import { backgroundReads } from '../../src/reads/request-spending.js';
import { CONDITIONS, type Condition } from '../../src/reads/upstream-condition.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { UpstreamClient } from '../../src/upstream/client.js';
import { endpoints } from '../../src/upstream/endpoints.js';
import type { ArtistProfile } from '../../src/upstream/records.js';
import { UpstreamNotices } from '../../src/upstream/upstream-notices.js';
import { todayAtUtc } from '../support/calendar.js';
import { readTableMarkdown } from '../support/read-table-markdown.js';
import { TEST_CLIENT_OPTIONS } from '../support/stack.js';
import { until } from '../support/until.js';

const SERVER_KEY = 'table-server-key';
const CLIENT_KEY = 'table-client-key';
/** Today's noon (UTC), held still: the budget's day and the plan's, whatever hour the test runs at. */
const NOW = new Date(todayAtUtc(12));
const now = () => NOW;
const GRACE_MS = 150;
/** The name a held entry carries, so that an answer tells whether it came from it. */
const HELD = 'Held answer';
const CURRENT_GENERATION = 3;

const TABLES = { plan: PLAN_TABLE, 'daily-limit': DAILY_LIMIT_TABLE } as const;
type Policy = keyof typeof TABLES;
const PLACES_OF: Record<Policy, readonly Place[]> = {
  plan: ['head', 'kept', 'tail'],
  'daily-limit': ['unplanned'],
};
const ALLOWANCES_OF: Record<Policy, readonly Allowance[]> = {
  plan: ['open'],
  'daily-limit': ALLOWANCES,
};

function cellsOf(policy: Policy): Cell[] {
  return ENTRY_KINDS.flatMap((state) =>
    PLACES_OF[policy].flatMap((place) =>
      CONDITIONS.flatMap((condition) =>
        ALLOWANCES_OF[policy].map((allowance) => ({ state, place, condition, allowance })),
      ),
    ),
  );
}

function rowOf(table: readonly Row[], cell: Cell): Row {
  const rows = table.filter((row) => matches(row, cell));
  if (rows.length !== 1)
    throw new Error(`${rows.length} rows match ${JSON.stringify(cell)}, not exactly one`);
  return rows[0] as Row;
}

describe('the read tables', () => {
  it('are shown in docs/economy.md exactly as the code has them', () => {
    const docs = readFileSync(new URL('../../docs/economy.md', import.meta.url), 'utf8');
    expect(docs).toContain(readTableMarkdown(PLAN_TABLE));
    expect(docs).toContain(readTableMarkdown(DAILY_LIMIT_TABLE));
  });

  it.each(Object.keys(TABLES) as Policy[])('%s: every read meets exactly one row', (policy) => {
    for (const cell of cellsOf(policy)) expect(() => rowOf(TABLES[policy], cell)).not.toThrow();
  });
});

let simulator: Simulator;
let slugs: string[];
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  simulator = await startSimulator({
    apiKeys: [SERVER_KEY, CLIENT_KEY],
    dailyLimit: 1_000_000,
    now,
  });
  slugs = simulator.data
    .allArtists()
    .slice(0, 3)
    .map((artist) => artist.slug);
});

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  simulator.clearFaults();
  simulator.setLatency(0);
});

afterAll(async () => {
  await simulator?.close();
});

interface Setting {
  readonly upstream: CachedUpstream;
  readonly client: UpstreamClient;
  readonly cache: MemoryCache;
  readonly caller: Caller;
  /** The record the read is of. */
  readonly slug: string;
  /** Where the record stands in the plan now (after the read, the place the read saw). */
  place(): Promise<Place>;
}

async function setUp(policy: Policy, cell: Cell): Promise<Setting> {
  const [slug, slowSlug, failingSlug] = slugs as [string, string, string];
  const planned = policy === 'plan';
  const apiKey = planned ? SERVER_KEY : CLIENT_KEY;
  const caller: Caller = { apiKey, keyId: keyIdOf(apiKey), mode: planned ? 'server' : 'client' };
  const dailyLimit = cell.allowance === 'reserve' ? 40 : 1_000;
  const client = new UpstreamClient({ baseUrl: simulator.url, ...TEST_CLIENT_OPTIONS });
  cleanups.push(() => client.close());
  const cache = new MemoryCache({ maxEntries: 1_000, maxBytes: 16 * 1024 * 1024 });
  const budget = new MemoryBudgetLedger({ dailyLimit, clientShare: 1, now });
  const popularity = new MemoryPopularity(now);
  const generation = new GenerationView();
  generation.learn({ id: CURRENT_GENERATION, seenAt: NOW.toISOString() });
  const keys = new MemoryKeyRegistry();
  await keys.markAccepted(caller.keyId);
  const allocator = planned
    ? new Allocator(
        new SpendingPlan({
          dailyLimit,
          pollIntervalMs: undefined,
          headShare: DEFAULT_HEAD_SHARE,
          burst: defaultBurst(dailyLimit),
        }),
        popularity,
        budget,
        now,
      )
    : undefined;
  const upstream = new CachedUpstream({
    client,
    cache,
    budget,
    keys,
    locks: new LocalFlightLocks(),
    cachePolicy: { ttlMs: 60_000, notFoundTtlMs: 10_000, retentionMs: 600_000 },
    retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 5 },
    deadlineMs: 10_000,
    notices: new UpstreamNotices(pino({ level: 'silent' })),
    // Out of the way: a failing upstream is the last call's failure here, not an open circuit.
    circuit: new LocalCircuitBreaker({ failureThreshold: 1_000, openMs: 30_000 }),
    staleGraceMs: GRACE_MS,
    generation,
    popularity,
    ...(allocator === undefined ? {} : { allocator }),
  });

  // The entry, as the cell's state has it: read for real, then marked and stamped.
  const request = endpoints.artist(slug);
  await upstream.read(request, caller, backgroundReads());
  const read = await cache.get(request.key);
  if (read === undefined) throw new Error('the first read kept nothing');
  const stamped = { ...read, value: { ...(read.value as ArtistProfile), name: HELD } };
  const generationOf: Record<EntryKind, number> = {
    none: CURRENT_GENERATION,
    current: CURRENT_GENERATION,
    behind: CURRENT_GENERATION - 1,
    outdated: CURRENT_GENERATION - 2,
  };
  if (cell.state === 'none') await cache.delete(request.key);
  else await cache.set(request.key, { ...stamped, generation: generationOf[cell.state] });

  // The record's place: its popularity against records asked more (held after the read).
  if (allocator !== undefined) {
    const { headRecords } = await allocator.tiers(caller.keyId);
    if (cell.place !== 'head')
      for (let filler = 0; filler < headRecords; filler += 1)
        for (let ask = 0; ask < LIKELY_READ_TODAY * 20; ask += 1)
          popularity.record([`/filler/${filler}`]);
    const asks = { head: LIKELY_READ_TODAY * 10, kept: LIKELY_READ_TODAY, tail: 0 }[
      cell.place as 'head' | 'kept' | 'tail'
    ];
    for (let ask = 0; ask < asks; ask += 1) popularity.record([request.key]);
  }
  const place = async () =>
    allocator === undefined ? 'unplanned' : new PlanPolicy(allocator).place(request.key, caller);

  await setCondition(cell.condition, { upstream, client, caller, slowSlug, failingSlug });

  // The day's allowance: spent down to its reserve, one call left for the read.
  if (cell.allowance === 'reserve') {
    const usage = await budget.usage(caller.keyId);
    for (let spent = 0; spent < usage.remaining - 1; spent += 1)
      await budget.reserve({ keyId: caller.keyId });
  }
  return { upstream, client, cache, caller, slug, place };
}

/** Makes the upstream's condition, as the read path will know it, the cell's. */
async function setCondition(
  condition: Condition,
  {
    upstream,
    client,
    caller,
    slowSlug,
    failingSlug,
  }: {
    upstream: CachedUpstream;
    client: UpstreamClient;
    caller: Caller;
    slowSlug: string;
    failingSlug: string;
  },
): Promise<void> {
  if (condition === 'failing') {
    const failing = endpoints.artist(failingSlug);
    simulator.injectFault({ kind: 'status', status: 500 }, { path: failing.key, times: 2 });
    await expect(upstream.read(failing, caller, backgroundReads())).rejects.toMatchObject({
      code: 'UPSTREAM_ERROR',
    });
  }
  if (condition === 'slow') {
    const slow = endpoints.artist(slowSlug);
    let release = () => {};
    simulator.injectFault(
      { kind: 'hold', until: new Promise<void>((resolve) => (release = resolve)) },
      { path: slow.key, times: 1 },
    );
    const hanging = upstream.read(slow, caller, backgroundReads()).catch(() => undefined);
    cleanups.push(async () => {
      release();
      await hanging;
    });
    await until(() => client.health().unansweredMs > GRACE_MS);
  }
}

describe.each(Object.keys(TABLES) as Policy[])('under the %s policy', (policy) => {
  it.each(cellsOf(policy).map((cell) => [describeCell(cell), cell] as const))(
    '%s',
    async (_name, cell) => {
      const row = rowOf(TABLES[policy], cell);
      const { upstream, cache, caller, slug, place } = await setUp(policy, cell);
      const request = endpoints.artist(slug);
      const fresh = simulator.data.artistBySlug(slug)?.name;
      const callsOf = () => simulator.calls.filter((call) => call.rawPath === request.key).length;
      const before = callsOf();
      // A refresh takes a while: an answer given before it lands did not wait for it.
      if (row.action !== 'refresh-first' && row.action !== 'call')
        simulator.injectFault({ kind: 'delay', ms: 4 * GRACE_MS }, { path: request.key });
      const reads = backgroundReads();
      // Reads under way already (the hanging call of a slow upstream): not this read's.
      const underWay = upstream.inFlight;
      const answer = await upstream.read(request, caller, reads);
      const { report } = reads;
      // The setting held: the record stood where the cell says when it was read.
      expect(await place()).toBe(cell.place);
      const heldStale = cell.state === 'outdated' ? 1 : 0;

      switch (row.action) {
        case 'answer':
          expect(answer.name).toBe(HELD);
          expect(report).toMatchObject({ cacheHits: 1, upstreamCalls: 0, previousGeneration: 0 });
          expect(report.stale).toEqual([]);
          expect(upstream.inFlight).toBe(underWay);
          break;
        case 'answer-held':
          expect(answer.name).toBe(HELD);
          expect(report.upstreamCalls).toBe(0);
          expect(report.stale).toHaveLength(heldStale);
          expect(report.previousGeneration).toBe(cell.state === 'behind' ? 1 : 0);
          // No refresh was started behind it.
          expect(upstream.inFlight).toBe(underWay);
          break;
        case 'answer-held-refresh-behind': {
          expect(answer.name).toBe(HELD);
          expect(report.upstreamCalls).toBe(0);
          expect(report.stale).toHaveLength(heldStale);
          // Answered before the refresh is back; the refresh then reaches the upstream and lands.
          expect((await cache.get(request.key))?.value).toMatchObject({ name: HELD });
          await until(async () => {
            const stored = await cache.get(request.key);
            return (stored?.value as ArtistProfile | undefined)?.name === fresh;
          });
          expect(callsOf()).toBe(before + 1);
          break;
        }
        case 'refresh-first':
          expect(answer.name).toBe(fresh);
          expect(report.upstreamCalls).toBe(1);
          expect(report.stale).toEqual([]);
          expect(callsOf()).toBe(before + 1);
          break;
        case 'call':
          expect(answer.name).toBe(fresh);
          expect(report.upstreamCalls).toBe(1);
          expect(callsOf()).toBe(before + 1);
          break;
      }
    },
  );
});

describe('a refresh-first row with the upstream slower than the grace', () => {
  it.each([
    ['plan', { state: 'outdated', place: 'kept', condition: 'answering', allowance: 'open' }],
    [
      'daily-limit',
      { state: 'outdated', place: 'unplanned', condition: 'answering', allowance: 'open' },
    ],
  ] as const)(
    '%s: answers from the held entry within the grace, flagged stale',
    async (policy, cell) => {
      expect(rowOf(TABLES[policy], cell).action).toBe('refresh-first');
      const { upstream, cache, caller, slug } = await setUp(policy, cell);
      const request = endpoints.artist(slug);
      const upstreamMs = 10 * GRACE_MS;
      simulator.injectFault({ kind: 'delay', ms: upstreamMs }, { path: request.key });
      const reads = backgroundReads();
      const started = performance.now();
      const answer = await upstream.read(request, caller, reads);
      // At the grace, not at the upstream's answer: halfway between them, so that a busy machine
      // stalling the process for a moment does not fail a read that kept its grace.
      expect(performance.now() - started).toBeLessThan((GRACE_MS + upstreamMs) / 2);
      expect(answer.name).toBe(HELD);
      expect(reads.report.stale).toHaveLength(1);
      // The call goes on and refreshes the cache when it lands.
      await until(
        async () =>
          ((await cache.get(request.key))?.value as ArtistProfile | undefined)?.name !== HELD,
      );
    },
  );
});

function describeCell(cell: Cell): string {
  return `entry ${cell.state}, ${cell.place}, upstream ${cell.condition}, day ${cell.allowance}`;
}
