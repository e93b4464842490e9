/**
 * Issue 29's load against a gateway process whose JS heap may not pass
 * 256 MB (`--max-old-space-size=256`): GraphiQL page loads, distinct and
 * identical page-sized answers at once, and subscribers that never read,
 * all together (bench/memory-mix.ts, at `npm run bench:memory`'s counts: 200
 * pages, 500 distinct and 1,000 identical top-20 answers, 300 subscribers).
 * It keeps answering: every request gets its answer, every subscriber its
 * stream, and a query afterwards is answered as before.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  concurrently,
  distinctTop20,
  type IdleSubscribers,
  identicalTop20,
  idleSubscribers,
  loadPage,
  type MixCounts,
} from '../../bench/memory-mix.js';
import { TOP_20_WITH_HISTORY_QUERY } from '../../bench/reference-queries.js';
import { type Simulator, startSimulator } from '../../src/simulator/index.js';
import { type Replica, startReplica } from '../support/replicas.js';

const KEY = 'memory-bound-key';
const COUNTS: MixCounts = { pages: 200, distinct: 500, identical: 1_000, subscribers: 300 };

let simulator: Simulator;
let gateway: Replica;
let subscribers: IdleSubscribers | undefined;
beforeAll(async () => {
  simulator = await startSimulator({ apiKeys: [KEY], dailyLimit: 1_000_000 });
  gateway = await startReplica({
    NODE_OPTIONS: '--max-old-space-size=256',
    UPSTREAM_URL: simulator.url,
    UPSTREAM_API_KEY: KEY,
    UPSTREAM_DAILY_LIMIT: '1000000',
    // Each virtual client has an address of its own (bench/memory-mix.ts), as behind a proxy.
    RATE_LIMIT_TRUST_PROXY: 'true',
  });
}, 60_000);
afterAll(async () => {
  subscribers?.close();
  await gateway?.stop();
  await simulator?.close();
});

it('keeps answering under page loads, answers and idle subscribers at once', async () => {
  const endpoint = `${gateway.url}/graphql`;
  expect((await gateway.query(TOP_20_WITH_HISTORY_QUERY)).status).toBe(200);

  subscribers = await idleSubscribers(endpoint, COUNTS.subscribers);
  expect(subscribers.heads.filter((head) => / 200 /.test(head))).toHaveLength(COUNTS.subscribers);

  const [pages, distinct, identical] = await Promise.all([
    concurrently(COUNTS.pages, () => loadPage(endpoint)),
    concurrently(COUNTS.distinct, (n) => distinctTop20(endpoint, n)),
    concurrently(COUNTS.identical, () => identicalTop20(endpoint)),
  ]);
  expect(pages).toEqual({ statuses: { 200: COUNTS.pages }, failures: [] });
  expect(distinct).toEqual({ statuses: { 200: COUNTS.distinct }, failures: [] });
  expect(identical).toEqual({ statuses: { 200: COUNTS.identical }, failures: [] });

  // Still there, and still answering.
  expect(gateway.process.exitCode).toBeNull();
  const after = await gateway.query(TOP_20_WITH_HISTORY_QUERY);
  expect(after.status).toBe(200);
  expect(after.body.errors).toBeUndefined();
  expect(after.body.data?.topArtistsByStreams).toHaveLength(20);
  expect(await gateway.ready()).toBe(200);
});
