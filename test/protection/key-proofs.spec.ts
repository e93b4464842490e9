/**
 * Pass-through keys the gateway does not know cost one upstream call to
 * prove, however many reads the request (or concurrent requests) make: the
 * other reads wait for the verdict, then read the cache or are refused.
 * Rejected keys hold no room in the budget ledger.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { keyIdOf } from '../../src/coordination/key-registry.js';
import { BudgetFile } from '../../src/economy/budget-file.js';
import { utcDay } from '../../src/time.js';
import { artistsQuery as artistsOf, bearer } from '../support/client-key-queries.js';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

const FRESH_KEYS = ['fresh-key-1', 'fresh-key-2', 'fresh-key-3'];

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    passThrough: true,
    simulator: { apiKeys: [CLIENT_KEY, ...FRESH_KEYS] },
    gateway: { unknownKeysPerMinute: 1_000 },
  });
});
afterAll(() => stack.close());

const artistsQuery = (from: number, count: number) => artistsOf(stack.simulator, from, count);

it('a made-up key costs one upstream call, not one per read, and gets 401', async () => {
  const before = stack.upstreamCalls();
  const response = await stack.query(artistsQuery(0, 5), undefined, bearer('made-up-many-reads'));
  expect(response.status).toBe(401);
  expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  expect(stack.upstreamCalls() - before).toBe(1);
});

it('concurrent requests with one made-up key prove it once', async () => {
  const before = stack.upstreamCalls();
  const responses = await Promise.all(
    [0, 1, 2, 3].map((i) =>
      stack.query(artistsQuery(5 + i, 1), undefined, bearer('made-up-concurrent')),
    ),
  );
  expect(responses.map((response) => response.status)).toEqual([401, 401, 401, 401]);
  expect(stack.upstreamCalls() - before).toBe(1);
});

it('a new valid key reading a cached page pays the one call that proves it', async () => {
  const query = artistsQuery(10, 3);
  const warm = await stack.query(query, undefined, bearer(CLIENT_KEY));
  expect(warm.status).toBe(200);
  const before = stack.upstreamCalls();
  const response = await stack.query(query, undefined, bearer(FRESH_KEYS[0]!));
  expect(response.status).toBe(200);
  expect(response.body.data).toEqual(warm.body.data);
  expect(stack.upstreamCalls() - before).toBe(1);
});

it('concurrent requests of a new valid key on cached pages prove it once', async () => {
  const queries = [20, 21, 22, 23].map((first) => artistsQuery(first, 1));
  for (const query of queries) await stack.query(query, undefined, bearer(CLIENT_KEY));
  const before = stack.upstreamCalls();
  const responses = await Promise.all(
    queries.map((query) => stack.query(query, undefined, bearer(FRESH_KEYS[1]!))),
  );
  expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200]);
  expect(stack.upstreamCalls() - before).toBe(1);
});

it('without Redis, rejected keys free their ledger slot: a day of made-up keys locks out no real key', async () => {
  const directory = mkdtempSync(join(tmpdir(), 'key-proofs-'));
  const budgetFile = join(directory, 'budget.json');
  // A ledger one key short of its bound (10,000 keys a day), as a busy day leaves it.
  const keys = Object.fromEntries(
    Array.from({ length: 9_999 }, (_, i) => [
      `earlier-${i}`,
      { used: 1, exhausted: false, paced: 0, refreshed: 0, polled: 0 },
    ]),
  );
  writeFileSync(budgetFile, JSON.stringify({ day: utcDay(new Date()), keys, clients: {} }));
  const full = await startStack({
    passThrough: true,
    sharedSimulator: stack.simulator,
    gateway: { unknownKeysPerMinute: 1_000, stores: { budgetFile } },
  });
  try {
    const query = artistsQuery(30, 1);
    for (let i = 0; i < 3; i++) await full.query(query, undefined, bearer(`made-up-ledger-${i}`));
    const real = await full.query(query, undefined, bearer(FRESH_KEYS[2]!));
    expect(real.status).toBe(200);
    expect(real.body.errors).toBeUndefined();
    const saved = JSON.parse(new BudgetFile(budgetFile).read() ?? '{}') as {
      keys: Record<string, unknown>;
    };
    expect(Object.keys(saved.keys)).toContain(keyIdOf(FRESH_KEYS[2]!));
    expect(Object.keys(saved.keys)).not.toContain(keyIdOf('made-up-ledger-0'));
    expect(Object.keys(saved.keys)).toHaveLength(10_000);
  } finally {
    await full.close();
    rmSync(directory, { recursive: true, force: true });
  }
});
