/**
 * `npm run bench:cpu-split`: where a request's CPU goes, in the gateway and in two bare
 * node:http servers sending the same bytes: one that only reads the body, and one that also
 * reads the request as the gateway must (bench/bare-process.ts, BARE_READS_REQUEST). Each runs
 * as one process, pinned to the first core (`taskset`, when there are two cores), and loaded
 * alone in turn by autocannon, which runs with the simulator on the second core. perf samples
 * the loaded process's threads, and each sample goes to the layer that spent it
 * (bench/perf-samples.ts): the kernel, Node.js, V8's collector and compilers, the
 * dependencies, or the server's own code. A layer's µs per request is its share of the samples
 * of a round perf records, times the process's CPU time per request over rounds it does not
 * watch.
 *
 * Why: a request to the gateway costs more than the bare server's, and what the gateway can
 * still take out of it is its own code's share and its dependencies'. The rest is what every
 * node:http server pays for a request (the bare server's rows), what looking at the request
 * costs Node.js (the reading bare server's), and the kernel's, which moves with the load.
 *
 * The gateway runs from dist/ as `npm start` runs it (pass-through, production, request log at
 * info). A repeated query is a response-cache hit; the varying page (its slug cycling over
 * ARTISTS artists, each read once before) is a miss over held records, which the bare server
 * answers with the first artist's page.
 *
 * Needs `perf` (Debian's linux-perf) and the right to record another process (root, or
 * kernel.perf_event_paranoid at 1 or less). Settings: ROUNDS (3, per server, alternating) and
 * ROUND_SECONDS (3), each server's recorded round as long; CONNECTIONS (10),
 * ARTISTS (100), ONLY (bench:tailcall's query keys, default all), FREQUENCY (perf's samples a
 * second, 999), TOP (the gateway's busiest functions listed per query, 8).
 */
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';
import { format, machineLine } from './figures.js';
import { answerHeaders, type CapturedAnswer, capture } from './http-capture.js';
import { ServerProcess } from './ipc.js';
import { LAYERS, SampleSplitter, type Split } from './perf-samples.js';
import { pinBench } from './pinning.js';
import { numberSetting } from './settings.js';
import { postLoad } from './tailcall/post-load.js';
import {
  cpuMicros,
  leaderboardSlugs,
  MAIN,
  proveKey,
  startOurs,
  startSimulator,
} from './tailcall/processes.js';
import { type Bodies, bodyOf, chosenQueries, loadBodies } from './tailcall/queries.js';

const number = (name: string, fallback: number) => numberSetting(name, fallback, 1, true);
const ROUND_SECONDS = number('ROUND_SECONDS', 3);
const ROUNDS = number('ROUNDS', 3);
const CONNECTIONS = number('CONNECTIONS', 10);
const ARTISTS = number('ARTISTS', 100);
const FREQUENCY = number('FREQUENCY', 999);
const TOP = number('TOP', 8);
const QUERIES = chosenQueries();
const KEY = 'bench-key';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: `Bearer ${KEY}`,
};
/**
 * The gateway's own code: its modules in this checkout's dist/, and the functions it compiles
 * at run time (the queries graphql-jit compiles from its schema), which have no URL.
 */
const OURS = new RegExp(
  `^(${pathToFileURL(join(MAIN, 'dist')).href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/|:\\d)`,
);
/** Node writes /tmp/perf-<pid>.map, which perf reads to name JavaScript frames. */
const PERF_MAP = '--perf-basic-prof-only-functions';

interface Side {
  readonly name: string;
  readonly pid: number;
  readonly url: string;
  /** Matches a JavaScript frame's location when the side's own code runs in it. */
  readonly ownCode: RegExp;
}

interface Measured {
  readonly requestsPerSecond: number;
  readonly cpuMicrosPerRequest: number;
  readonly split: Split;
}

function perfWorks(): string | undefined {
  try {
    execFileSync('perf', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'perf is not installed (Debian: apt-get install linux-perf)';
  }
  return undefined;
}

interface Round {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMicros: number;
}

/** One round of load on `side`, unwatched: its requests, seconds and CPU time. */
async function round(side: Side, bodies: Bodies, seconds = ROUND_SECONDS): Promise<Round> {
  const cpuBefore = cpuMicros(side.pid);
  const result = await postLoad({
    url: side.url,
    headers: HEADERS,
    connections: CONNECTIONS,
    seconds,
    bodies,
  });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${side.name}: failed answers`);
  return {
    requests: result['2xx'],
    seconds: result.duration,
    cpuMicros: cpuMicros(side.pid) - cpuBefore,
  };
}

/** A round of load on `side` while perf records it: the layers that spent its CPU. */
async function recorded(side: Side, bodies: Bodies, folder: string): Promise<Split> {
  const data = join(folder, `${side.pid}.data`);
  const perf = spawn(
    'perf',
    ['record', '-F', String(FREQUENCY), '-g', '-p', String(side.pid), '-o', data],
    { stdio: 'ignore' },
  );
  const exited = once(perf, 'exit');
  // perf samples CPU time: the moments before the load, the process idle, give it nothing.
  await round(side, bodies);
  perf.kill('SIGINT');
  const [code] = (await exited) as [number | null];
  if (code !== 0 && code !== null) throw new Error(`perf record ended with status ${code}`);
  return splitOf(data, side.ownCode);
}

/** The samples of a recording, each given to its layer. */
async function splitOf(data: string, ownCode: RegExp): Promise<Split> {
  const script = spawn('perf', ['script', '-i', data, '-F', 'ip,sym,dso'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const splitter = new SampleSplitter(ownCode);
  for await (const line of createInterface({ input: script.stdout, crlfDelay: Infinity }))
    splitter.line(line);
  return splitter.result();
}

function rows(query: string, measured: readonly [Side, Measured][]): string[] {
  return measured.map(([side, { requestsPerSecond, cpuMicrosPerRequest, split }]) => {
    const layers = LAYERS.map(({ layer }) =>
      format((cpuMicrosPerRequest * split.byLayer[layer]) / Math.max(1, split.samples), 1),
    );
    return `| ${query} | ${side.name} | ${format(requestsPerSecond)} | ${format(cpuMicrosPerRequest, 1)} | ${layers.join(' | ')} | ${format(split.samples)} |`;
  });
}

function busiest(ours: Measured): string {
  const { split, cpuMicrosPerRequest } = ours;
  return [...split.ownFunctions]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(
      ([name, samples]) =>
        `${name.replace(/file:\/\/\S*?\/dist\//, 'dist/').replace(/ :(\d+)/, ' (compiled query):$1')} ${format((cpuMicrosPerRequest * samples) / split.samples, 1)} µs`,
    )
    .join('; ');
}

async function main(): Promise<void> {
  const missing = perfWorks();
  if (missing !== undefined) {
    console.error(`bench:cpu-split needs perf: ${missing}`);
    process.exit(2);
  }
  const cores = availableParallelism();
  const folder = mkdtempSync(join(tmpdir(), 'bench-cpu-split-'));
  const simulator = await startSimulator(50, KEY);
  const ours = await startOurs(simulator.url, { WORKERS: '1' }, undefined, [PERF_MAP]);
  const NODE_OPTIONS = `${process.env.NODE_OPTIONS ?? ''} ${PERF_MAP}`.trim();
  // The bare server as it is, and as it is when it also reads the request as the gateway must.
  const kinds: { name: string; env: Record<string, string> }[] = [
    { name: 'bare, reading the request', env: { NODE_OPTIONS, BARE_READS_REQUEST: '1' } },
    { name: 'bare', env: { NODE_OPTIONS } },
  ];
  const bares = await Promise.all(
    kinds.map(async ({ name, env }) => {
      const server = await ServerProcess.start('bench/bare-process.ts', name, env, 'ignore');
      return { name, server, url: (await server.ask<{ url: string }>({ type: 'url' })).url };
    }),
  );
  const pids = [ours.pid, ...bares.map((bare) => bare.server.pid)];
  try {
    const sides: Side[] = [
      { name: 'gateway', pid: ours.pid, url: ours.url, ownCode: OURS },
      ...bares.map(({ name, server, url }) => ({
        name,
        pid: server.pid,
        url,
        ownCode: /\/bench\/bare-process\.ts:/,
      })),
    ];
    const pinned = pinBench(
      sides.map((side) => side.pid),
      [simulator.pid],
    );
    const slugs = await leaderboardSlugs(simulator, KEY, ARTISTS);
    await proveKey(ours, HEADERS, slugs[0]!);

    console.log("# Where a request's CPU goes (npm run bench:cpu-split)\n");
    console.log(
      `${machineLine(cores)}; ${
        pinned
          ? 'each server pinned to core 0 in turn, autocannon and the simulator to core 1'
          : 'nothing pinned (no taskset or one core): the load generator shares the cores'
      }; per server and query, ${ROUNDS} rounds of ${ROUND_SECONDS} s (the servers alternating) and one more that perf records at ${FREQUENCY} Hz, ${CONNECTIONS} connections.\n`,
    );
    console.log(
      `Each layer's µs per request: ${LAYERS.map(({ name, holds }) => `${name} (${holds})`).join('; ')}.\n`,
    );
    const header = LAYERS.map(({ name }) => `${name} µs`).join(' | ');
    console.log(`| query | server | req/s | CPU µs per request | ${header} | samples |`);
    console.log(`|---|---|---:|---:|${LAYERS.map(() => '---:|').join('')}---:|`);
    const functions: string[] = [];
    for (const query of QUERIES) {
      const bodies = loadBodies(query, 'ours', slugs);
      // A hit: two misses first (an answer is stored at its second). A miss over held records:
      // each slug's records read once.
      const firsts = query.varying ? slugs.length : 2;
      for (let request = 0; request < firsts; request += 1)
        await fetch(ours.url, { method: 'POST', headers: HEADERS, body: bodyOf(bodies, request) });
      const body = bodyOf(bodies, 0);
      const answer = await capture(ours.url, body, {
        accept: HEADERS.accept,
        authorization: HEADERS.authorization,
      });
      const captured: CapturedAnswer = {
        status: answer.status,
        headers: answerHeaders(answer.headers),
        bodyBase64: answer.body.toString('base64'),
      };
      for (const bare of bares) {
        await bare.server.ask({ type: 'serve', answer: captured });
        const replayed = await capture(bare.url, body);
        if (replayed.status !== answer.status || !replayed.body.equals(answer.body))
          throw new Error(`${bare.name} does not send the gateway's bytes for ${query.name}`);
      }
      // Unmeasured first: what runs is compiled and the connections are open.
      for (const side of sides) await round(side, bodies, 2);
      // Perf's sampling costs the process CPU of its own: req/s and CPU per request come from
      // rounds it does not watch, the sides alternating so that a drift of the machine falls on
      // both; then a round of each that it records, for the layers' shares.
      const rounds: Round[][] = sides.map(() => []);
      for (let index = 0; index < ROUNDS; index += 1)
        for (const side of index % 2 === 0 ? sides : [...sides].reverse())
          rounds[sides.indexOf(side)]!.push(await round(side, bodies));
      const measured: [Side, Measured][] = [];
      for (const [index, side] of sides.entries()) {
        const sum = (key: keyof Round) =>
          rounds[index]!.reduce((total, each) => total + each[key], 0);
        measured.push([
          side,
          {
            requestsPerSecond: sum('requests') / sum('seconds'),
            cpuMicrosPerRequest: sum('cpuMicros') / sum('requests'),
            split: await recorded(side, bodies, folder),
          },
        ]);
      }
      for (const row of rows(query.name, measured)) console.log(row);
      functions.push(`- ${query.name}: ${busiest(measured[0]![1])}`);
    }
    console.log(
      "\nThe gateway's own code, its busiest functions (µs per request, inlined callees included):\n",
    );
    for (const line of functions) console.log(line);
  } finally {
    await Promise.allSettled([
      ours.stop(),
      ...bares.map((bare) => bare.server.stop()),
      simulator.stop(),
    ]);
    rmSync(folder, { recursive: true, force: true });
    for (const pid of pids) rmSync(`/tmp/perf-${pid}.map`, { force: true });
  }
}

await main();
