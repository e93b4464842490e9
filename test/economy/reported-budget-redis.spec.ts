/**
 * The budget figures answers report (`extensions.cost.budget`) with Redis: answers that made no
 * call and met no error read the shared ledger at most once a second, where each read is a round
 * trip; an answer that made calls reports them at once.
 */
import { performance } from 'node:perf_hooks';
import { expect, it } from 'vitest';
import { artistsQuery } from '../support/client-key-queries.js';
import { commandsDuring } from '../support/redis-monitor.js';
import { useRedisStack } from '../support/redis-stack.js';

interface Cost {
  readonly upstreamCalls: number;
  readonly budget: { readonly remaining: number };
}

const shared = useRedisStack();

const costOf = async (query: string): Promise<Cost> => {
  const answer = await shared.stack.query(query);
  expect(answer.body.errors).toBeUndefined();
  return answer.body.extensions?.cost as Cost;
};

it('answers that spend nothing read the shared budget at most once a second; one that spends shows it at once', async () => {
  const held = artistsQuery(shared.stack.simulator, 0, 2);
  const before = await costOf(held);
  expect(before.upstreamCalls).toBeGreaterThan(0);

  // Each its own shape: a response-cache miss answered from held records.
  const shapes = ['slug', 'followers', 'monthlyListeners', 'country', 'isAfrobeats', 'imageUrl'];
  let elapsedMs = 0;
  const reads = await commandsDuring(
    shared.redis,
    // The ledger's `usage` (used, returned, exhausted): the plan's own background reads of the
    // day's spending ask for other fields of the same key.
    ([command, key, ...fields]) =>
      command?.toLowerCase() === 'hmget' &&
      String(key).includes('budget:') &&
      fields.join(' ') === 'used returned exhausted',
    async () => {
      const started = performance.now();
      for (const field of shapes) {
        const cost = await costOf(held.replaceAll('name', `name ${field}`));
        expect(cost.upstreamCalls).toBe(0);
        expect(cost.budget.remaining).toBe(before.budget.remaining);
      }
      elapsedMs = performance.now() - started;
    },
  );
  expect(reads.length, `${JSON.stringify(reads)} in ${elapsedMs} ms`).toBeLessThanOrEqual(
    Math.ceil(elapsedMs / 1_000),
  );
  expect(reads.length).toBeLessThan(shapes.length);

  const spent = await costOf(artistsQuery(shared.stack.simulator, 2, 1));
  expect(spent.upstreamCalls).toBeGreaterThan(0);
  expect(spent.budget.remaining).toBe(before.budget.remaining - spent.upstreamCalls);
});
