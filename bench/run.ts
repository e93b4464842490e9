/**
 * `npm run bench`: starts the simulator (in its own process, with latency) and
 * the gateway, then prints upstream calls per reference query (cold and warm),
 * warm-cache throughput and latency, the wall time of a cold nested query
 * against the sum of its upstream latencies, and the gateway's peak memory.
 *
 * Settings: BENCH_LATENCY_MS (simulated upstream latency, default 50),
 * BENCH_DURATION_S (load per query, default 5), BENCH_CONNECTIONS (default 20).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import autocannon from 'autocannon';
import pino from 'pino';
import { loadConfig } from '../src/config.js';
import { createGateway } from '../src/server/gateway.js';
import { listen } from '../src/server/http-server.js';
import { ARTIST_PAGE_QUERY, REFERENCE_QUERIES } from './reference-queries.js';

const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 50);
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const KEY = 'bench-key';

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 20);

async function startSimulatorProcess(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/simulator/main.ts'], {
    env: {
      ...process.env,
      SIMULATOR_PORT: '0',
      SIMULATOR_LATENCY_MS: String(LATENCY_MS),
      SIMULATOR_API_KEYS: KEY,
      SIMULATOR_DAILY_LIMIT: String(Number.MAX_SAFE_INTEGER),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // Keep reading stdout for the child's whole life: a closed pipe would kill it on its next log line.
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += String(chunk);
      const match = /listening on (http:\/\/\S+)\/api\/v1/.exec(output);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', () => reject(new Error(`the simulator did not start: ${output}`)));
  });
  return { url, child };
}

async function startGateway(upstreamUrl: string) {
  // The per-client rate limit would throttle the load generator, which is one client.
  const config = loadConfig({ UPSTREAM_DAILY_LIMIT: '100000000', RATE_LIMIT_REQUESTS: '0' });
  const gateway = createGateway({ ...config, upstreamUrl, upstreamApiKey: KEY, logger: pino({ level: 'silent' }) });
  const running = await listen(gateway, 0, '127.0.0.1');
  return { running, url: `${running.url.replace('localhost', '127.0.0.1')}/graphql` };
}

interface Cost {
  upstreamCalls: number;
}

async function post(url: string, query: string, variables?: Record<string, unknown>) {
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { errors?: unknown[]; extensions?: { cost?: Cost } };
  if (body.errors) throw new Error(`query failed: ${JSON.stringify(body.errors)}`);
  return { ms: performance.now() - started, calls: body.extensions?.cost?.upstreamCalls ?? Number.NaN };
}

async function load(url: string, query: string, variables?: Record<string, unknown>) {
  const result = await autocannon({
    url,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
    connections: CONNECTIONS,
    duration: DURATION_S,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

async function main(): Promise<void> {
  const simulator = await startSimulatorProcess();
  const topSlug = await (async () => {
    const gateway = await startGateway(simulator.url);
    const response = await fetch(gateway.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ topArtistsByStreams(limit: 1) { artist { slug } } }' }),
    });
    await gateway.running.close();
    const body = (await response.json()) as { data: { topArtistsByStreams: { artist: { slug: string } }[] } };
    return body.data.topArtistsByStreams[0]!.artist.slug;
  })();

  console.log(`\nUpstream latency ${LATENCY_MS} ms; load ${DURATION_S} s x ${CONNECTIONS} connections per query.\n`);
  console.log('Upstream calls per reference query (fresh gateway each: cold, then the same query again: warm)');
  console.log('| query | cold calls | warm calls | cold ms | warm ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const reference of REFERENCE_QUERIES) {
    const gateway = await startGateway(simulator.url);
    const variables = reference.variables?.(topSlug);
    const cold = await post(gateway.url, reference.query, variables);
    const warm = await post(gateway.url, reference.query, variables);
    console.log(`| ${reference.name} | ${cold.calls} | ${warm.calls} | ${cold.ms.toFixed(0)} | ${warm.ms.toFixed(1)} |`);
    await gateway.running.close();
  }

  const gateway = await startGateway(simulator.url);
  const cold = await post(gateway.url, ARTIST_PAGE_QUERY, { slug: topSlug });
  console.log(
    `\nCold artist page: ${cold.ms.toFixed(0)} ms wall for ${cold.calls} upstream calls of ~${LATENCY_MS} ms ` +
      `(sum ${cold.calls * LATENCY_MS} ms; query depth 2 → ideal ~${2 * LATENCY_MS} ms): ` +
      `${(cold.ms / (cold.calls * LATENCY_MS)).toFixed(2)} of the sequential sum.`,
  );

  console.log('\nWarm cache under load');
  console.log('| query | req/s | p50 ms | p99 ms | errors |');
  console.log('|---|---:|---:|---:|---:|');
  const loads: [string, string, Record<string, unknown> | undefined][] = [
    ['artist page (nested)', ARTIST_PAGE_QUERY, { slug: topSlug }],
    ['top 50 artists, names', REFERENCE_QUERIES[1]!.query, undefined],
  ];
  for (const [name, query, variables] of loads) {
    await post(gateway.url, query, variables);
    const result = await load(gateway.url, query, variables);
    console.log(`| ${name} | ${result.rps.toFixed(0)} | ${result.p50} | ${result.p99} | ${result.errors} |`);
  }

  await gateway.running.close();
  simulator.child.kill('SIGTERM');
  await once(simulator.child, 'exit');
  clearInterval(sampler);
  console.log(`\nPeak RSS of the bench process (gateway + autocannon; the simulator runs in its own process): ${(peakRss / 1024 / 1024).toFixed(0)} MB.`);
}

await main();
