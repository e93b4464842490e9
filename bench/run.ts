/**
 * `npm run bench`: issue 12's benchmark, in one run on one machine.
 *
 * Processes: the simulator (with latency), the gateway (bench/gateway-process.ts)
 * and a bare node:http server (bench/bare-process.ts) each in their own; the
 * load generator (autocannon) and this script in a fourth.
 *
 * 1. Upstream calls per economy reference query, cold (fresh gateway) and warm.
 * 2. Cold: issue 12's cold references on a fresh gateway (empty caches) in a
 *    warm process, in wall time and in upstream round trips (wall / latency),
 *    next to their floor: the same upstream calls made by the upstream client
 *    alone (cold-floor.ts), so that the gateway's own share shows.
 * 3. Cold over a network: the same, against a simulator whose every new
 *    connection takes a handshake (BENCH_HANDSHAKE_MS) before its first
 *    answer, as TCP and TLS do over a real network; next to the floor with
 *    the connections of later waves opened ahead, and without.
 * 4. Warm: each warm reference against the bare server sending the bytes the
 *    gateway answered, in alternating rounds (gateway, bare, bare, gateway, …)
 *    so the machine's noise falls on both; req/s, their ratio, and each
 *    process's CPU time per request.
 *
 * Settings: BENCH_LATENCY_MS (simulated upstream latency, default 50),
 * BENCH_DURATION_S (each warm round, default 5), BENCH_ROUNDS (warm rounds per
 * server and query, default 2), BENCH_CONNECTIONS (default 10),
 * BENCH_COLD_REPEATS (fresh gateways per cold query, default 15),
 * BENCH_HANDSHAKE_MS (a new connection's handshake in part 3, default: the latency),
 * BENCH_REDIS_URL (when set, the cold pages also with Redis, as replicas run them),
 * BENCH_REDIS_CLUSTER (when set, the cold pages on a Redis Cluster against the same on one
 * Redis, BENCH_REDIS_URL or 127.0.0.1:6379: `local` starts six redis-servers of the bench's own,
 * three primaries and three replicas, as the tests do; otherwise the seeds of a running cluster,
 * as REDIS_CLUSTER_NODES), BENCH_ONLY (a comma list of the parts to run: calls, cold, network,
 * redis, cluster, warm; default all).
 */
import { cpus, loadavg } from 'node:os';
import { startOwnCluster } from '../test/support/redis-cluster.js';
import { COLD_FLOORS, coldFloorMs } from './cold-floor.js';
import { format, median } from './figures.js';
import type { CapturedAnswer } from './http-capture.js';
import { answerHeaders, capture } from './http-capture.js';
import { ServerProcess } from './ipc.js';
import {
  cpuMicrosPerRequest,
  loadRound,
  perSecond,
  type Round,
  scavengeMsPerThousand,
  type Target,
} from './load-round.js';
import {
  COLD_REFERENCE_QUERIES,
  REFERENCE_QUERIES,
  type ReferenceQuery,
  WARM_REFERENCE_QUERIES,
} from './reference-queries.js';
import type { RequestPhases } from './request-phases.js';
import { numberSetting } from './settings.js';
import { startSimulatorProcess } from './simulator-process.js';

const setting = (name: string, fallback: number, min: number) =>
  numberSetting(name, fallback, min, true);

const LATENCY_MS = setting('BENCH_LATENCY_MS', 50, 1);
const DURATION_S = setting('BENCH_DURATION_S', 5, 1);
const ROUNDS = setting('BENCH_ROUNDS', 2, 1);
const CONNECTIONS = setting('BENCH_CONNECTIONS', 10, 1);
const COLD_REPEATS = setting('BENCH_COLD_REPEATS', 15, 1);
const HANDSHAKE_MS = setting('BENCH_HANDSHAKE_MS', LATENCY_MS, 1);
const REDIS_URL = process.env.BENCH_REDIS_URL?.trim() || undefined;
const REDIS_CLUSTER = process.env.BENCH_REDIS_CLUSTER?.trim() || undefined;
const PARTS = ['calls', 'cold', 'network', 'redis', 'cluster', 'warm'] as const;
const ONLY = (process.env.BENCH_ONLY?.trim() || PARTS.join(','))
  .split(',')
  .map((part) => part.trim());
for (const part of ONLY) {
  if (!(PARTS as readonly string[]).includes(part)) {
    console.error(`BENCH_ONLY: "${part}" is not one of ${PARTS.join(', ')}`);
    process.exit(2);
  }
}
const runs = (part: (typeof PARTS)[number]) => ONLY.includes(part);
/** A first short load per server and query, not counted: JIT and connection set-up happen there. */
const WARMUP_S = 1;
const KEY = 'bench-key';

interface GraphQLBody {
  data?: unknown;
  errors?: unknown[];
  extensions?: { cost?: { upstreamCalls?: number; responseCache?: string } };
}

const requestBody = (reference: ReferenceQuery, slug: string) =>
  JSON.stringify({ query: reference.query, variables: reference.variables?.(slug) });

async function post(url: string, body: string) {
  const answer = await capture(url, body);
  const parsed = JSON.parse(answer.body.toString('utf8')) as GraphQLBody;
  if (answer.status !== 200 || parsed.errors) {
    throw new Error(
      `query failed (${answer.status}): ${answer.body.toString('utf8').slice(0, 500)}`,
    );
  }
  return { ...answer, parsed, calls: parsed.extensions?.cost?.upstreamCalls ?? Number.NaN };
}

const range = (values: readonly number[], digits: number) =>
  `${format(Math.min(...values), digits)}–${format(Math.max(...values), digits)}`;

async function topSlug(gatewayUrl: string): Promise<string> {
  const answer = await post(
    gatewayUrl,
    JSON.stringify({ query: '{ topArtistsByStreams(limit: 1) { artist { slug } } }' }),
  );
  return (answer.parsed.data as { topArtistsByStreams: { artist: { slug: string } }[] })
    .topArtistsByStreams[0]!.artist.slug;
}

async function upstreamCalls(fresh: () => Promise<string>, slug: string): Promise<void> {
  console.log(
    '\n## Upstream calls per economy reference query (fresh gateway each: cold, then the same query again: warm)\n',
  );
  console.log('| query | cold calls | warm calls | cold ms | warm ms |');
  console.log('|---|---:|---:|---:|---:|');
  for (const reference of REFERENCE_QUERIES) {
    const url = await fresh();
    const cold = await post(url, requestBody(reference, slug));
    const warm = await post(url, requestBody(reference, slug));
    console.log(
      `| ${reference.name} | ${cold.calls} | ${warm.calls} | ${cold.ms.toFixed(0)} | ${warm.ms.toFixed(1)} |`,
    );
  }
}

/** Issue 12's goals for the cold references, in upstream latencies plus the gateway's allowance. */
const COLD_GOALS: Record<string, { readonly roundTrips: number; readonly allowanceMs: number }> = {
  'artist page (nested)': { roundTrips: 1, allowanceMs: 40 },
  'top 20 artists with 90-day history': { roundTrips: 2, allowanceMs: 25 },
};

async function coldRoundTrips(
  fresh: () => Promise<string>,
  phasesOfLast: () => Promise<RequestPhases | null>,
  slug: string,
  upstreamUrl: string,
): Promise<void> {
  console.log(
    `\n## Cold: fresh gateway (empty caches) in a warm process, upstream latency ${LATENCY_MS} ms\n`,
  );
  console.log(
    `Median of ${COLD_REPEATS} fresh gateways each, after one that is not counted. ` +
      'Floor: the same upstream calls in the same waves with the upstream client alone on fresh ' +
      'connections (bench/cold-floor.ts), measured alternately with the gateway; ' +
      "wall less floor is the gateway's own work, taken page by page (each page less the floor " +
      'measured right after it, the median of those), so that a drift in the machine falls on both.\n',
  );
  console.log(
    "| query | upstream calls | wall ms (median) | wall ms (range) | round trips (wall / latency) | floor ms (median) | gateway's own ms (median of wall − floor) | goal ms |",
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  const where: string[] = [];
  for (const reference of COLD_REFERENCE_QUERIES) {
    const walls: number[] = [];
    const floors: number[] = [];
    const phases: RequestPhases[] = [];
    const floorWaves = COLD_FLOORS[reference.name];
    let calls = Number.NaN;
    for (let repeat = 0; repeat <= COLD_REPEATS; repeat++) {
      const answer = await post(await fresh(), requestBody(reference, slug));
      const pagePhases = await phasesOfLast();
      const floor =
        floorWaves === undefined
          ? Number.NaN
          : await coldFloorMs(floorWaves, upstreamUrl, KEY, slug);
      if (repeat === 0) continue;
      walls.push(answer.ms);
      floors.push(floor);
      if (pagePhases !== null) phases.push(pagePhases);
      calls = answer.calls;
    }
    if (phases.length > 0) where.push(`- ${reference.name}: ${phasesLine(phases)}`);
    const wall = median(walls);
    const floor = median(floors);
    const own = median(walls.map((pageMs, index) => pageMs - floors[index]!));
    const goal = COLD_GOALS[reference.name];
    const goalMs =
      goal === undefined ? '–' : `≤ ${goal.roundTrips * LATENCY_MS + goal.allowanceMs}`;
    console.log(
      `| ${reference.name} | ${calls} | ${wall.toFixed(0)} | ${range(walls, 0)} | ${(wall / LATENCY_MS).toFixed(2)} ` +
        `| ${floor.toFixed(0)} | ${own.toFixed(0)} | ${goalMs} |`,
    );
  }
  console.log(
    "\nWhere a page's time went inside the gateway's process (bench/request-phases.ts), medians:\n",
  );
  for (const line of where) console.log(line);
}

/** The phases of a cold page's requests, each the median over the pages. */
function phasesLine(phases: readonly RequestPhases[]): string {
  const ms = (pick: (phase: RequestPhases) => number) => median(phases.map(pick)).toFixed(1);
  const waves = median(phases.map((phase) => phase.waves));
  return (
    `${ms((phase) => phase.beforeFirstCallMs)} ms from its arrival to its first upstream call; ` +
    (waves > 1 ? `${ms((phase) => phase.betweenWavesMs)} ms between its ${waves} waves; ` : '') +
    `its last wave's answers over ${ms((phase) => phase.lastWaveAnswersMs)} ms; ` +
    `${ms((phase) => phase.afterLastAnswerMs)} ms from the last answer to its own end`
  );
}

/**
 * The cold references against an upstream whose new connections each take a handshake: what a
 * fan-out's later wave gains from connections opened while the first wave is in flight.
 */
async function coldOverNetwork(
  fresh: () => Promise<string>,
  slug: string,
  upstreamUrl: string,
): Promise<void> {
  console.log(
    `\n## Cold over a network: every new connection takes a ${HANDSHAKE_MS} ms handshake, upstream latency ${LATENCY_MS} ms\n`,
  );
  console.log(
    `Median of ${COLD_REPEATS} fresh gateways each, after one that is not counted. A real ` +
      'network makes a new connection wait a round trip for TCP and another for TLS before its ' +
      'first call (the simulator plays that from when it accepts the connection). Floors as above, ' +
      "with the later waves' connections opened while the first call is in flight (as the gateway " +
      'does), and with each call opening its own when it leaves.\n',
  );
  console.log(
    '| query | upstream calls | wall ms (median) | wall ms (range) | floor ms, connections opened ahead | floor ms, connections opened when needed |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const reference of COLD_REFERENCE_QUERIES) {
    const walls: number[] = [];
    const ahead: number[] = [];
    const whenNeeded: number[] = [];
    const floorWaves = COLD_FLOORS[reference.name]!;
    let calls = Number.NaN;
    for (let repeat = 0; repeat <= COLD_REPEATS; repeat++) {
      const answer = await post(await fresh(), requestBody(reference, slug));
      const floorAhead = await coldFloorMs(floorWaves, upstreamUrl, KEY, slug, true);
      const floorWhenNeeded = await coldFloorMs(floorWaves, upstreamUrl, KEY, slug, false);
      if (repeat === 0) continue;
      walls.push(answer.ms);
      ahead.push(floorAhead);
      whenNeeded.push(floorWhenNeeded);
      calls = answer.calls;
    }
    console.log(
      `| ${reference.name} | ${calls} | ${median(walls).toFixed(0)} | ${range(walls, 0)} ` +
        `| ${median(ahead).toFixed(0)} | ${median(whenNeeded).toFixed(0)} |`,
    );
  }
}

/** Two ways of running a fresh gateway, compared on the cold references. */
interface ColdComparison {
  readonly title: string;
  readonly note: string;
  /** Column names: the first way, the second, and what the first adds. */
  readonly columns: readonly [string, string, string];
  first(): Promise<string>;
  second(): Promise<string>;
}

/**
 * The cold references on fresh gateways of two kinds, alternately (a drift in the machine falls
 * on both), after one of each that is not counted; the medians, and what the first adds.
 */
async function coldAlternately(comparison: ColdComparison, slug: string): Promise<void> {
  const [first, second, adds] = comparison.columns;
  console.log(`\n## ${comparison.title}, upstream latency ${LATENCY_MS} ms\n`);
  console.log(
    `Median of ${COLD_REPEATS} fresh gateways each, alternately, after one of each that is not counted. ${comparison.note}\n`,
  );
  console.log(
    `| query | wall ms ${first} (median) | range | wall ms ${second} (median) | range | ${adds} ms |`,
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const reference of COLD_REFERENCE_QUERIES) {
    const ofFirst: number[] = [];
    const ofSecond: number[] = [];
    for (let repeat = 0; repeat <= COLD_REPEATS; repeat++) {
      const one = await post(await comparison.first(), requestBody(reference, slug));
      const other = await post(await comparison.second(), requestBody(reference, slug));
      if (repeat === 0) continue;
      ofFirst.push(one.ms);
      ofSecond.push(other.ms);
    }
    console.log(
      `| ${reference.name} | ${median(ofFirst).toFixed(0)} | ${range(ofFirst, 0)} ` +
        `| ${median(ofSecond).toFixed(0)} | ${range(ofSecond, 0)} | ${(median(ofFirst) - median(ofSecond)).toFixed(1)} |`,
    );
  }
}

/** Where a fresh gateway shares its stores: one Redis (`url`) or a cluster (`cluster`, its seeds). */
type SharedStore = { readonly url: string } | { readonly cluster: string };

async function warmAgainstBare(gateway: Target, bare: Target, slug: string): Promise<void> {
  console.log(
    `\n## Warm: gateway against a bare node:http server sending the same bytes` +
      ` (${CONNECTIONS} connections, ${ROUNDS} rounds of ${DURATION_S} s each, alternating)\n`,
  );
  const rows: string[] = [];
  const cacheLines: string[] = [];
  for (const reference of WARM_REFERENCE_QUERIES) {
    const body = requestBody(reference, slug);
    // The first answer fills the upstream cache, the second the response cache (once there is one); the third is kept.
    await post(gateway.url, body);
    await post(gateway.url, body);
    const answer = await post(gateway.url, body);
    const captured: CapturedAnswer = {
      status: answer.status,
      headers: answerHeaders(answer.headers),
      bodyBase64: answer.body.toString('base64'),
    };
    await bare.process.ask({ type: 'serve', answer: captured });
    const replayed = await capture(bare.url, body);
    if (!replayed.body.equals(answer.body))
      throw new Error(`the bare server does not send the gateway's bytes for ${reference.name}`);
    const responseCache = answer.parsed.extensions?.cost?.responseCache;
    cacheLines.push(
      `- ${reference.name}: ${responseCache === undefined ? 'not reported (no `extensions.cost.responseCache`)' : responseCache}` +
        `, ${answer.calls} upstream calls`,
    );

    await loadRound(gateway, body, CONNECTIONS, WARMUP_S);
    await loadRound(bare, body, CONNECTIONS, WARMUP_S);
    const ofGateway: Round[] = [];
    const ofBare: Round[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Gateway first in even rounds, bare first in odd ones: a drift in the machine's load falls on both alike.
      const order = round % 2 === 0 ? [gateway, bare] : [bare, gateway];
      for (const target of order) {
        const result = await loadRound(target, body, CONNECTIONS, DURATION_S);
        (target === gateway ? ofGateway : ofBare).push(result);
      }
    }
    const gatewayRate = perSecond(ofGateway);
    const bareRate = perSecond(ofBare);
    const roundRatios = ofGateway.map(
      (round, index) => perSecond([round]) / perSecond([ofBare[index]!]),
    );
    const errors = [...ofGateway, ...ofBare].reduce((sum, round) => sum + round.errors, 0);
    rows.push(
      `| ${reference.name} | ${format(answer.body.length)} | ${format(gatewayRate)} | ${format(bareRate)} ` +
        `| ${format((100 * gatewayRate) / bareRate, 1)} % | ${range(
          roundRatios.map((ratio) => 100 * ratio),
          1,
        )} % ` +
        `| ${format(cpuMicrosPerRequest(ofGateway))} | ${format(cpuMicrosPerRequest(ofBare))} ` +
        `| ${format(scavengeMsPerThousand(ofGateway), 1)} ` +
        `| ${Math.max(...ofGateway.map((round) => round.p99Ms))} | ${errors} |`,
    );
  }
  console.log(
    '| query | answer bytes | gateway req/s | bare req/s | gateway / bare | per round | gateway CPU µs/req | bare CPU µs/req | gateway scavenge ms per 1,000 req | gateway p99 ms | errors |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) console.log(row);
  console.log('\nResponse cache on the measured answer (`extensions.cost.responseCache`):\n');
  for (const line of cacheLines) console.log(line);
}

async function main(): Promise<void> {
  const cores = cpus();
  console.log('# Benchmark (npm run bench)\n');
  console.log(
    `Machine: ${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, ` +
      `load average at start ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}.`,
  );

  const simulator = await startSimulatorProcess(LATENCY_MS, KEY);
  const started: { stop(): Promise<void> }[] = [simulator];
  try {
    const gatewayProcess = await ServerProcess.start(
      'bench/gateway-process.ts',
      'gateway',
      { BENCH_UPSTREAM_URL: simulator.url, BENCH_UPSTREAM_KEY: KEY },
      'ignore',
    );
    started.push(gatewayProcess);
    const bareProcess = await ServerProcess.start('bench/bare-process.ts', 'bare server');
    started.push(bareProcess);
    const fresh = async () => (await gatewayProcess.ask<{ url: string }>({ type: 'fresh' })).url;
    const freshOn = async (store: SharedStore) =>
      (
        await gatewayProcess.ask<{ url: string }>({
          type: 'fresh',
          ...('url' in store ? { redisUrl: store.url } : { redisCluster: store.cluster }),
        })
      ).url;
    const slug = await topSlug(await fresh());

    if (runs('calls')) await upstreamCalls(fresh, slug);
    const phasesOfLast = () => gatewayProcess.ask<RequestPhases | null>({ type: 'phases' });
    if (runs('cold')) await coldRoundTrips(fresh, phasesOfLast, slug, simulator.url);
    if (runs('network')) {
      const network = await startSimulatorProcess(LATENCY_MS, KEY, HANDSHAKE_MS);
      started.push(network);
      const freshOverNetwork = async () =>
        (await gatewayProcess.ask<{ url: string }>({ type: 'fresh', upstreamUrl: network.url }))
          .url;
      await coldOverNetwork(freshOverNetwork, slug, network.url);
    }
    if (REDIS_URL !== undefined && runs('redis')) {
      await coldAlternately(
        {
          title: 'Cold with Redis (BENCH_REDIS_URL), as replicas run, and without',
          note: 'Each with Redis under a key prefix of its own.',
          columns: ['with Redis', 'without', 'Redis adds'],
          first: () => freshOn({ url: REDIS_URL }),
          second: fresh,
        },
        slug,
      );
    }
    if (REDIS_CLUSTER !== undefined && runs('cluster')) {
      const cluster = REDIS_CLUSTER === 'local' ? await startOwnCluster() : undefined;
      if (cluster !== undefined) started.push(cluster);
      const seeds = cluster?.seeds ?? REDIS_CLUSTER;
      await coldAlternately(
        {
          title: 'Cold on a Redis Cluster (3 primaries, 3 replicas) and on one Redis',
          note: "On the cluster every reservation waits for a replica's acknowledgement (REDIS_WAIT_REPLICAS=1, its default).",
          columns: ['on the cluster', 'on one Redis', 'the cluster adds'],
          first: () => freshOn({ cluster: seeds }),
          second: () => freshOn({ url: REDIS_URL ?? 'redis://127.0.0.1:6379' }),
        },
        slug,
      );
    }
    if (runs('warm')) {
      const gateway: Target = { url: await fresh(), process: gatewayProcess };
      const bare: Target = {
        url: (await bareProcess.ask<{ url: string }>({ type: 'url' })).url,
        process: bareProcess,
      };
      await warmAgainstBare(gateway, bare, slug);
    }

    const { peakRssBytes } = await gatewayProcess.usage();
    console.log(`\nPeak RSS of the gateway process: ${format(peakRssBytes / 1024 / 1024)} MB.`);
    console.log(
      `Load average at the end: ${loadavg()
        .map((load) => load.toFixed(2))
        .join(' ')}.`,
    );
  } finally {
    await Promise.allSettled(started.map((running) => running.stop()));
  }
}

await main();
