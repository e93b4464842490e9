/**
 * `npm run bench:redis`: what each deployment costs in Redis commands per
 * request and in memory, measured for docs/scale-out.md#deployments.
 *
 * 1. Redis commands of a request, on a redis-server of this run's own and on
 *    a cluster of its own (three primaries, three replicas): a cold artist
 *    page on a fresh replica, the same document again on it (response cache,
 *    in process), the same document on a second replica (response cache in
 *    Redis), and another document reading the same records there (the
 *    upstream cache in Redis). Counted as the gateway sends them (its
 *    client's commands, pipelined ones each) and as Redis runs them
 *    (INFO commandstats of the primaries, commands inside scripts included).
 * 2. Redis memory per artist page: MEMORY USAGE of every key twenty cold
 *    pages wrote, on one Redis and on the cluster (whose replicas hold a
 *    copy each).
 * 3. Gateway processes: resident memory (VmRSS) after the same twenty pages,
 *    without Redis, with one Redis, with the cluster, and WORKERS=2 (the
 *    primary and its workers together).
 *
 * Needs redis-server and redis-cli on the PATH. Settings: none.
 */
// First: graphql-js reads NODE_ENV when it loads (src/production-mode.ts).
import '../src/production-mode.js';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Cluster, Redis } from 'ioredis';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/gateway/gateway.js';
import { parseClusterSeeds } from '../src/redis/cluster-nodes.js';
import { connectRedis, type RedisTarget, type SharedRedis } from '../src/redis/connection.js';
import { listen, type RunningServer } from '../src/server/http/http-server.js';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { freePort, startOwnRedis } from '../test/support/redis.js';
import { startOwnCluster } from '../test/support/redis-cluster.js';
import { startReplica } from '../test/support/replicas.js';
import { ARTIST_PAGE_QUERY } from './reference-queries.js';

const KEY = 'bench-key';
const PAGES = 20;
const silent = pino({ level: 'silent' });
const config = loadConfig({
  UPSTREAM_DAILY_LIMIT: '100000000',
  RATE_LIMIT_REQUESTS: '0',
  LOG_LEVEL: 'silent',
});

interface Store {
  readonly name: string;
  readonly target: RedisTarget;
  /** Connections to each primary, unprefixed. */
  primaries(): Redis[];
  /** Copies of every key besides the primary's (replicas per primary). */
  readonly replicasEach: number;
}

/** A gateway in this process whose client's commands are counted by name. */
interface CountedGateway {
  readonly url: string;
  readonly sent: Map<string, number>;
  close(): Promise<void>;
}

async function countedGateway(simulator: Simulator, store: Store, prefix: string) {
  const shared: SharedRedis = await connectRedis(store.target, prefix, silent);
  const sent = new Map<string, number>();
  const client = shared.client as unknown as { sendCommand(command: { name: string }): unknown };
  const send = client.sendCommand.bind(client);
  client.sendCommand = (command, ...rest: unknown[]) => {
    sent.set(command.name, (sent.get(command.name) ?? 0) + 1);
    return (send as (...args: unknown[]) => unknown)(command, ...rest);
  };
  const gateway = createGateway({
    ...config,
    upstreamUrl: simulator.url,
    upstreamApiKey: KEY,
    logger: silent,
    redis: shared,
  });
  const running: RunningServer = await listen(gateway, 0, '127.0.0.1');
  return {
    url: `${running.url.replace('localhost', '127.0.0.1')}/graphql`,
    sent,
    close: () => running.close(),
  } satisfies CountedGateway;
}

async function post(url: string, query: string, variables: Record<string, unknown>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: unknown[] };
  if (body.errors !== undefined) throw new Error(JSON.stringify(body.errors));
}

/** Every command each primary ran since the last call (scripts' own commands included). */
async function ran(store: Store): Promise<number> {
  let calls = 0;
  for (const node of store.primaries()) {
    const stats = await node.info('commandstats');
    for (const [, name, count] of stats.matchAll(/cmdstat_([\w|]+):calls=(\d+)/g))
      if (name !== 'info' && name !== 'config') calls += Number(count);
    await node.config('RESETSTAT');
  }
  return calls;
}

const total = (counts: Map<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);
const named = (counts: Map<string, number>) =>
  [...counts]
    .sort(([, a], [, b]) => b - a)
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');

/** Runs `request`, then says what the gateway sent and what the primaries ran meanwhile. */
async function measured(store: Store, gateway: CountedGateway, request: () => Promise<void>) {
  await ran(store);
  gateway.sent.clear();
  await request();
  const sent = new Map(gateway.sent);
  return { sent, ran: await ran(store) };
}

async function commandsPerRequest(simulator: Simulator, store: Store, slug: string) {
  const prefix = `costs-${Date.now()}:`;
  const first = await countedGateway(simulator, store, prefix);
  const second = await countedGateway(simulator, store, prefix);
  // Whatever the gateways send once at start (the poll's lease, the generation) is not a request's.
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rows = [
    ['cold artist page, fresh replica', first, ARTIST_PAGE_QUERY],
    ['same document again, same replica', first, ARTIST_PAGE_QUERY],
    ['same document, another replica', second, ARTIST_PAGE_QUERY],
    ['another document, same records, another replica', second, `# other\n${ARTIST_PAGE_QUERY}`],
  ] as const;
  for (const [name, gateway, query] of rows) {
    const { sent, ran: run } = await measured(store, gateway, () =>
      post(gateway.url, query, { slug }),
    );
    console.log(`| ${store.name} | ${name} | ${total(sent)} | ${named(sent)} | ${run} |`);
  }
  await first.close();
  await second.close();
}

/** The bytes Redis holds for every key under `prefix` (MEMORY USAGE), on every primary. */
async function heldUnder(store: Store, prefix: string): Promise<number> {
  let bytes = 0;
  for (const node of store.primaries()) {
    let cursor = '0';
    do {
      const [next, keys] = await node.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      cursor = next;
      for (const key of keys) bytes += Number((await node.memory('USAGE', key)) ?? 0);
    } while (cursor !== '0');
  }
  return bytes;
}

async function memoryPerPage(simulator: Simulator, store: Store, slugs: string[]) {
  const prefix = `memory-${Date.now()}:`;
  const gateway = await countedGateway(simulator, store, prefix);
  for (const slug of slugs) await post(gateway.url, ARTIST_PAGE_QUERY, { slug });
  const kb = (await heldUnder(store, prefix)) / slugs.length / 1024;
  console.log(`| ${store.name} | ${kb.toFixed(1)} | ${store.replicasEach} |`);
  await gateway.close();
}

/** Resident memory of `pid` and of its children, in MiB. */
function rssMiB(pid: number): number {
  let listed = '';
  try {
    listed = execFileSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  } catch {
    // ps answers 1 when the process has no children.
  }
  const children = listed
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((child) => child > 0);
  let kb = 0;
  for (const each of [pid, ...children]) {
    const status = readFileSync(`/proc/${each}/status`, 'utf8');
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  }
  return kb / 1024;
}

async function processMemory(
  name: string,
  env: Record<string, string>,
  simulator: Simulator,
  slugs: string[],
): Promise<void> {
  const replica = await startReplica({
    UPSTREAM_URL: simulator.url,
    UPSTREAM_API_KEY: KEY,
    UPSTREAM_DAILY_LIMIT: '100000000',
    REDIS_KEY_PREFIX: `rss-${Date.now()}:`,
    ...env,
  });
  try {
    const idle = rssMiB(replica.process.pid!);
    for (const slug of slugs) await replica.query(ARTIST_PAGE_QUERY, { slug });
    console.log(`| ${name} | ${idle.toFixed(0)} | ${rssMiB(replica.process.pid!).toFixed(0)} |`);
  } finally {
    await replica.stop('SIGTERM');
  }
}

async function main(): Promise<void> {
  const one = await startOwnRedis(await freePort());
  const cluster = await startOwnCluster();
  const simulator = await startSimulator({ apiKeys: [KEY], dailyLimit: 100_000_000 });
  const { Redis: RedisClient } = await import('ioredis');
  const single = new RedisClient(one.url);
  try {
    const stores: Store[] = [
      { name: 'one Redis', target: one.url, primaries: () => [single], replicasEach: 0 },
      {
        name: 'cluster',
        target: parseClusterSeeds(cluster.seeds),
        primaries: () => (cluster.admin as Cluster).nodes('master'),
        replicasEach: 1,
      },
    ];
    const slugs = simulator.data
      .allArtists()
      .slice(0, 1 + 2 * PAGES)
      .map((artist) => artist.slug);
    console.log('# Redis costs per request and memory (npm run bench:redis)\n');
    console.log('## Redis commands per request\n');
    console.log(
      '| store | request | commands the gateway sends | which | commands Redis runs (primaries, scripts included) |',
    );
    console.log('|---|---|---:|---|---:|');
    for (const store of stores) await commandsPerRequest(simulator, store, slugs[0]!);
    console.log(`\n## Redis memory per cold artist page (${PAGES} pages)\n`);
    console.log('| store | KB per page (MEMORY USAGE of its keys) | copies on replicas |');
    console.log('|---|---:|---:|');
    for (const store of stores) await memoryPerPage(simulator, store, slugs.slice(1, 1 + PAGES));
    console.log(`\n## Gateway processes: resident memory, MiB (tsx; after ${PAGES} cold pages)\n`);
    console.log('| deployment | at start | after the pages |');
    console.log('|---|---:|---:|');
    const later = slugs.slice(1 + PAGES);
    await processMemory('one process, no Redis', {}, simulator, later);
    await processMemory('one process, one Redis', { REDIS_URL: one.url }, simulator, later);
    await processMemory(
      'one process, cluster',
      { REDIS_CLUSTER_NODES: cluster.seeds },
      simulator,
      later,
    );
    await processMemory(
      'WORKERS=2, one Redis (primary and workers)',
      { REDIS_URL: one.url, WORKERS: '2' },
      simulator,
      later,
    );
  } finally {
    single.disconnect();
    await simulator.close();
    await cluster.stop();
    await one.stop();
  }
}

await main();
