/**
 * `extensions.stale` names what a client can use: the GraphQL path of each
 * field answered from held data (as an error's `path`: response keys, so
 * aliases, and list indices) and how old that data is, in seconds. A read
 * several fields share names each of them; a field whose read was fresh is
 * not named.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { until } from '../support/replicas.js';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';

const TTL_MS = 50;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      retries: 0,
      cache: {
        ttlMs: TTL_MS,
        notFoundTtlMs: TTL_MS,
        retentionMs: 600_000,
        maxEntries: 1_000,
        maxBytes: 1e7,
      },
    },
  });
});
afterAll(() => stack.close());

it('lists the path of every field answered from held data, with its age', async () => {
  const query = `{
    top: topArtistsByStreams(limit: 2) { rank artist { name history { date } } }
    again: topArtistsByStreams(limit: 1) { rank }
  }`;
  const fresh = await stack.query(query);
  expect(fresh.body.extensions?.stale).toBeUndefined();

  // The upstream failing, the leaderboard and both histories past their TTL (each its own, a
  // few ms apart): held data answers them all.
  stack.simulator.injectFault({ kind: 'status', status: 500 });
  let held: GraphQLResponse | undefined;
  await until(async () => {
    held = await stack.query(query);
    return (held.body.extensions?.stale as unknown[] | undefined)?.length === 4;
  });
  stack.simulator.clearFaults();

  expect(held!.body.errors).toBeUndefined();
  expect(held!.body.data).toEqual(fresh.body.data);
  const stale = held!.body.extensions?.stale as { path: (string | number)[]; ageSeconds: number }[];
  // One leaderboard read answers both aliases; each artist's history is its own read.
  expect(stale.map((field) => field.path.join('.')).sort()).toEqual([
    'again',
    'top',
    'top.0.artist.history',
    'top.1.artist.history',
  ]);
  for (const field of stale) {
    expect(Number.isInteger(field.ageSeconds)).toBe(true);
    expect(field.ageSeconds).toBeGreaterThanOrEqual(0);
  }
});
