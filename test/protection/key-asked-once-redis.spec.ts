/**
 * Pass-through mode with Redis: a request of a key already accepted asks the shared key registry
 * for it once at most, however many records it reads, and response-cache hits ask for it at most
 * once a second (what Redis said is kept that long, never past its expiry). Each read asking
 * again was a Redis round trip per record, and each hit one more. A new key's first request reads
 * its entry where a decision needs it: at the key check and under the proof's lease; not for a
 * response-cache miss, nor again before the proof's lease, nor for the reads that waited for the
 * proof (the proving replica wrote the entry, so it knows how long it lives).
 */

import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { keyIdOf } from '../../src/coordination/key-registry.js';
import { artistsQuery, bearer } from '../support/client-key-queries.js';
import { commandsDuring } from '../support/redis-monitor.js';
import { useRedisStack } from '../support/redis-stack.js';
import { CLIENT_KEY, OTHER_CLIENT_KEY } from '../support/stack.js';

const shared = useRedisStack({ passThrough: true });

/** The commands Redis ran on the key's registry entry while `during` ran, GETs apart. */
async function keyCommandsDuring(
  during: () => Promise<void>,
  key = CLIENT_KEY,
): Promise<{ gets: number }> {
  const keyRecord = `${shared.prefix}key:${keyIdOf(key)}`;
  const seen = await commandsDuring(shared.redis, (args) => args.includes(keyRecord), during);
  return { gets: seen.filter(([command]) => command === 'get').length };
}

it('a request of an accepted key reading twenty held records asks the registry for the key once at most', async () => {
  const query = artistsQuery(shared.stack.simulator, 0, 5);
  const first = await shared.stack.query(query, undefined, bearer(CLIENT_KEY));
  expect(first.body.errors).toBeUndefined();

  const asked = await keyCommandsDuring(async () => {
    // The same records in another shape: not the stored answer, every record held.
    const again = await shared.stack.query(
      query.replaceAll('name', 'name followers'),
      undefined,
      bearer(CLIENT_KEY),
    );
    expect(again.body.errors).toBeUndefined();
    const cost = again.body.extensions?.cost as { upstreamCalls: number; cacheHits: number };
    expect(cost.upstreamCalls).toBe(0);
    expect(cost.cacheHits).toBeGreaterThanOrEqual(20);
  });
  expect(asked.gets).toBeLessThanOrEqual(1);
});

it('response-cache hits of an accepted key ask Redis for it at most once a second', async () => {
  const query = artistsQuery(shared.stack.simulator, 5, 2);
  // Stored from its second miss on: the third is a hit.
  for (let i = 0; i < 3; i++)
    expect(
      (await shared.stack.query(query, undefined, bearer(CLIENT_KEY))).body.errors,
    ).toBeUndefined();

  let elapsedMs = 0;
  const hits = 20;
  const asked = await keyCommandsDuring(async () => {
    const started = performance.now();
    for (let i = 0; i < hits; i++) {
      const hit = await shared.stack.query(query, undefined, bearer(CLIENT_KEY));
      expect(hit.body.extensions?.cost).toMatchObject({ responseCache: 'hit' });
    }
    elapsedMs = performance.now() - started;
  });
  expect(asked.gets).toBeLessThanOrEqual(1 + Math.ceil(elapsedMs / 1_000));
  expect(asked.gets).toBeLessThan(hits);
});

it("a new key's first request reads its registry entry at the check and under the proof's lease", async () => {
  const query = artistsQuery(shared.stack.simulator, 7, 5);
  const asked = await keyCommandsDuring(async () => {
    const first = await shared.stack.query(query, undefined, bearer(OTHER_CLIENT_KEY));
    expect(first.body.errors).toBeUndefined();
  }, OTHER_CLIENT_KEY);
  expect(asked.gets).toBeLessThanOrEqual(2);
});
