/**
 * `npm run bench:memory`: issue 29's measurement. What the gateway process
 * holds in memory, measured from outside (`VmRSS` and its peak `VmHWM` in
 * /proc/<pid>/status), under the load of bench/memory-mix.ts.
 *
 * Processes: the simulator (bench/simulator-process.ts, no latency) and the
 * gateway as `npm start` runs it (`node dist/main.js`, built by the npm
 * script) against it in server-key mode, each in its own; the load from this
 * one. The gateway runs at its defaults but for three settings: one process
 * (WORKERS=1, what `auto` runs in a container below 768 MiB), a day of
 * 100,000,000 upstream calls (the plan would pace a fresh gateway's first
 * touches) and RATE_LIMIT_TRUST_PROXY=true, so that each virtual client,
 * with an X-Forwarded-For address of its own, is a client of its own for the
 * per-client rate limit and subscription limit.
 *
 * Phases, one after the other, each one's requests all at once: the upstream
 * cache warmed (one top-20 answer), 200 GraphiQL page loads, 500 distinct
 * top-20-with-history answers, 1,000 identical ones, 300 idle subscribers
 * (kept open to the end), then the three request kinds again together; last,
 * a GraphiQL revalidation with the page's ETag, which must answer 304.
 *
 * Settings: BENCH_MAIN (the gateway's entry point, default dist/main.js: another
 * build can be measured the same way); BENCH_GATEWAY_ENV (settings added to the
 * gateway's environment, `NAME=value` separated by spaces, NODE_OPTIONS
 * included: a container size's settings from docs/configuration.md#memory).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  concurrently,
  distinctTop20,
  identicalTop20,
  idleSubscribers,
  loadPage,
  type MixCounts,
  type PhaseOutcome,
} from './memory-mix.js';
import { startSimulatorProcess } from './simulator-process.js';

const COUNTS: MixCounts = { pages: 200, distinct: 500, identical: 1_000, subscribers: 300 };
const KEY = 'bench-memory-key';
const MIB = 1024 * 1024;

/** `NAME=value NAME=value` as an environment; a value may not hold spaces but NODE_OPTIONS's own. */
function settings(list: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const match of list.matchAll(/([A-Z][A-Z0-9_]*)=(\S*)/g)) {
    const [, name = '', value = ''] = match;
    env[name] = env[name] === undefined ? value : `${env[name]} ${value}`;
  }
  return env;
}

/** VmRSS and VmHWM of `pid`, in bytes. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1]);
  return { rss: kib('VmRSS') * 1024, peak: kib('VmHWM') * 1024 };
}

const simulator = await startSimulatorProcess(0, KEY);
const budgetFolder = mkdtempSync(join(tmpdir(), 'bench-memory-'));
const gateway = spawn(process.execPath, [process.env.BENCH_MAIN ?? 'dist/main.js'], {
  env: {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    UPSTREAM_URL: simulator.url,
    UPSTREAM_API_KEY: KEY,
    UPSTREAM_DAILY_LIMIT: '100000000',
    RATE_LIMIT_TRUST_PROXY: 'true',
    BUDGET_FILE: join(budgetFolder, 'budget.json'),
    // One process, as `WORKERS=auto` runs in the containers measured here (below 768 MiB): the
    // figures are one process's /proc status, not a cluster's.
    WORKERS: '1',
    ...settings(process.env.BENCH_GATEWAY_ENV ?? ''),
  },
  stdio: ['ignore', 'pipe', 'inherit'],
});
// The request log is read and dropped: a closed pipe would stop the gateway at its next line.
let printed = '';
const base = await new Promise<string>((resolve, reject) => {
  gateway.stdout.on('data', (chunk: Buffer) => {
    if (printed.length < 10_000) printed += chunk.toString();
    const match = /GraphQL \+ GraphiQL\s+(http:\/\/\S+)\/graphql/.exec(printed);
    if (match?.[1] !== undefined) resolve(match[1].replace('localhost', '127.0.0.1'));
  });
  gateway.once('exit', (code) => reject(new Error(`the gateway exited (${code}):\n${printed}`)));
});
const endpoint = `${base}/graphql`;
const pid = gateway.pid!;

const rows: string[] = [];
function row(phase: string, startedAt: number, outcome?: PhaseOutcome) {
  const { rss, peak } = memoryOf(pid);
  const seconds = ((performance.now() - startedAt) / 1000).toFixed(1);
  const answers =
    outcome === undefined
      ? ''
      : Object.entries(outcome.statuses)
          .map(([status, count]) => `${count}×${status}`)
          .join(' ') +
        (outcome.failures.length > 0 ? ` ${outcome.failures.length} unanswered` : '');
  rows.push(
    `| ${phase} | ${seconds} s | ${answers} | ${(rss / MIB).toFixed(0)} MiB | ${(peak / MIB).toFixed(0)} MiB |`,
  );
  console.log(rows.at(-1));
}

if (process.env.BENCH_GATEWAY_ENV)
  console.log(`Gateway settings: ${process.env.BENCH_GATEWAY_ENV}\n`);
console.log('| phase | time | answers | VmRSS after | VmHWM so far |');
console.log('|---|---|---|---|---|');
row('start', performance.now());

let started = performance.now();
row(
  'upstream cache warmed (1 top-20 answer)',
  started,
  await concurrently(1, () => identicalTop20(endpoint)),
);

started = performance.now();
row(
  `${COUNTS.pages} GraphiQL page loads`,
  started,
  await concurrently(COUNTS.pages, () => loadPage(endpoint)),
);

started = performance.now();
row(
  `${COUNTS.distinct} distinct top-20 answers`,
  started,
  await concurrently(COUNTS.distinct, (n) => distinctTop20(endpoint, n)),
);

started = performance.now();
row(
  `${COUNTS.identical} identical top-20 answers`,
  started,
  await concurrently(COUNTS.identical, () => identicalTop20(endpoint)),
);

started = performance.now();
const subscribers = await idleSubscribers(endpoint, COUNTS.subscribers);
const opened = subscribers.heads.filter((head) => / 200 /.test(head)).length;
row(`${COUNTS.subscribers} idle subscribers (${opened} streams open)`, started);

started = performance.now();
const together = await Promise.all([
  concurrently(COUNTS.pages, () => loadPage(endpoint)),
  concurrently(COUNTS.distinct, (n) => distinctTop20(endpoint, COUNTS.distinct + n)),
  concurrently(COUNTS.identical, () => identicalTop20(endpoint)),
]);
row('all three again at once, subscribers open', started, {
  statuses: Object.fromEntries(
    [...new Set(together.flatMap((outcome) => Object.keys(outcome.statuses)))].map((status) => [
      status,
      together.reduce((sum, outcome) => sum + (outcome.statuses[Number(status)] ?? 0), 0),
    ]),
  ),
  failures: together.flatMap((outcome) => outcome.failures),
});

const page = await loadPage(endpoint);
const etag = page.headers.etag;
const again =
  typeof etag === 'string' ? await loadPage(endpoint, { 'if-none-match': etag }) : undefined;
console.log(
  `\nGraphiQL page: ${page.status}, ${page.bytes} bytes in ${String(page.headers['content-encoding'] ?? 'identity')}, ` +
    `ETag ${etag ?? '(none)'}, Cache-Control ${String(page.headers['cache-control'] ?? '(none)')}; ` +
    `revalidated with its ETag: ${again?.status ?? 'not possible'}`,
);
const { peak } = memoryOf(pid);
console.log(`Peak VmHWM of the gateway process: ${(peak / MIB).toFixed(0)} MiB`);

subscribers.close();
const exited = once(gateway, 'exit');
gateway.kill('SIGTERM');
await exited;
await simulator.stop();
rmSync(budgetFolder, { recursive: true, force: true });
