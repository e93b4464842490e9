/**
 * `npm run bench:hits`: what one request costs the gateway, a response-cache hit or a miss over
 * records it already holds, measured where nothing else competes for its core. The gateway runs from dist/ as `npm start` runs it (pass-through,
 * production, log at info), pinned with all its threads to the first core, and autocannon (in
 * this process) and the simulator to the second, with `taskset`: its CPU time per request is
 * then its own work, not a share of a core it fought the load generator for. Where `taskset`
 * or a second core is missing, nothing is pinned, and the output says so.
 *
 * Per query (those of bench:tailcall): req/s, CPU µs per request, the p99, and the gateway's
 * scavenges per thousand requests (their count and milliseconds, from its /metrics): requests
 * that leave objects alive past their answer show there first. A repeated query is a hit; the
 * varying page (its slug cycling over ARTISTS artists, each read once before) is a miss over held
 * records, as is every query with VARY=1 (its body new on every request: an undeclared variable
 * that changes), which shows what Yoga's path costs a query that reads nothing.
 *
 * Settings: ROUND_SECONDS (5), ROUNDS (2), CONNECTIONS (10), ARTISTS (100), ONLY (typename,
 * artist, top20, chart, page, pages), VARY=1, GET=1 (every request a GET of the same operation,
 * its members as search parameters, where HTTP caching adds its ETag), AGAINST (another built checkout, measured the same
 * way in alternate rounds: a change to the request path against the commit before it, in one
 * sitting; a last table gives, per query, the median of the rounds' CPU ratios), OURS_NODE_ARGS
 * (Node flags for every gateway started, `--cpu-prof` say).
 */
import { availableParallelism } from 'node:os';
import { format, machineLine } from './figures.js';
import { pinBench } from './pinning.js';
import { nodeArgsSetting, numberSetting } from './settings.js';
import { asSearch, postLoad } from './tailcall/post-load.js';
import {
  cpuMicros,
  leaderboardSlugs,
  proveKey,
  type Running,
  startOurs,
  startSimulator,
} from './tailcall/processes.js';
import {
  type Bodies,
  bodyOf,
  chosenQueries,
  loadBodies,
  type PeerQuery,
} from './tailcall/queries.js';

const number = (name: string, fallback: number) => numberSetting(name, fallback, 1);
const ROUND_SECONDS = number('ROUND_SECONDS', 5);
const ROUNDS = number('ROUNDS', 2);
const CONNECTIONS = number('CONNECTIONS', 10);
const ARTISTS = number('ARTISTS', 100);
const VARY = process.env.VARY === '1';
const GET = process.env.GET === '1';
const AGAINST = process.env.AGAINST?.trim() || undefined;
const NODE_ARGS = nodeArgsSetting('OURS_NODE_ARGS');
const KEY = 'bench-key';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  authorization: `Bearer ${KEY}`,
};
const QUERIES = chosenQueries();

const missesOnly = (query: PeerQuery) => query.varying === true || VARY;

/** Young-generation collections of `server` so far, from its own /metrics. */
async function scavenges(server: Running): Promise<{ count: number; ms: number }> {
  const text = await (await fetch(new URL('/metrics', server.url))).text();
  const read = (name: string) =>
    Number(new RegExp(`^${name}\\{kind="minor"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
  return {
    count: read('nodejs_gc_duration_seconds_count'),
    ms: 1000 * read('nodejs_gc_duration_seconds_sum'),
  };
}

interface Round {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  readonly scavenges: number;
  readonly scavengeMs: number;
  readonly p99: number;
  readonly errors: number;
}

async function load(server: Running, bodies: Bodies, seconds: number): Promise<Round> {
  const cpuBefore = cpuMicros(server.pid);
  const gcBefore = await scavenges(server);
  const result = await postLoad({
    url: server.url,
    headers: HEADERS,
    connections: CONNECTIONS,
    seconds,
    bodies,
    get: GET,
  });
  const gcAfter = await scavenges(server);
  return {
    requests: result['2xx'],
    seconds: result.duration,
    cpuMicros: cpuMicros(server.pid) - cpuBefore,
    scavenges: gcAfter.count - gcBefore.count,
    scavengeMs: gcAfter.ms - gcBefore.ms,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Each round's CPU per request of `ours` over `theirs`, paired by round: their median and range. */
function roundRatios(ours: readonly Round[], theirs: readonly Round[]): string {
  const perRequest = (round: Round) => round.cpuMicros / round.requests;
  const ratios = ours
    .map((round, index) => perRequest(round) / perRequest(theirs[index]!))
    .sort((a, b) => a - b);
  const middle = ratios.length / 2;
  const median =
    ratios.length % 2 === 1
      ? ratios[Math.floor(middle)]!
      : (ratios[middle - 1]! + ratios[middle]!) / 2;
  return `${format(median, 2)} (${format(ratios[0]!, 2)}-${format(ratios.at(-1)!, 2)})`;
}

async function main(): Promise<void> {
  // Read before pinning: this process's own affinity is then one core.
  const cores = availableParallelism();
  const simulator = await startSimulator(50, KEY);
  const sides = [{ name: 'this checkout', checkout: undefined as string | undefined }];
  if (AGAINST !== undefined) sides.push({ name: AGAINST, checkout: AGAINST });
  const servers: Running[] = [];
  try {
    // One process each: its own CPU per request, on the core it is pinned to.
    for (const side of sides)
      servers.push(await startOurs(simulator.url, { WORKERS: '1' }, side.checkout, NODE_ARGS));
    const pinned = pinBench(
      servers.map((server) => server.pid),
      [simulator.pid],
    );
    const slugs = await leaderboardSlugs(simulator, KEY, ARTISTS);
    const slug = slugs[0] ?? 'burna-boy';
    for (const server of servers) await proveKey(server, HEADERS, slug);
    console.log('# What a request costs the gateway alone on a core (npm run bench:hits)\n');
    console.log(
      `${machineLine(cores)}; ${
        pinned
          ? 'the gateway pinned to core 0, autocannon and the simulator to core 1'
          : 'nothing pinned (no taskset or one core): figures include the load generator competing'
      }; ${ROUNDS} rounds of ${ROUND_SECONDS} s per query and side, ${CONNECTIONS} connections${GET ? ', every request a GET' : ''}.\n`,
    );
    console.log(
      '| query | answered | side | req/s | CPU µs per request | scavenges per 1,000 requests | scavenge ms per 1,000 requests | p99 ms | errors |',
    );
    console.log('|---|---|---|---:|---:|---:|---:|---:|---:|');
    const ratios: string[] = [];
    for (const query of QUERIES) {
      const bodies = loadBodies(query, 'ours', slugs, VARY);
      const rounds: Round[][] = servers.map(() => []);
      for (const server of servers) {
        // A hit: two misses (an answer is stored at its key's second). A miss over held records:
        // each slug's records read once. Then a warm-up of what is measured.
        const firsts = query.varying ? slugs.length : 2;
        for (let request = 0; request < firsts; request += 1) {
          const body = bodyOf(bodies, request);
          const answer = GET
            ? await fetch(`${server.url}?${asSearch(body)}`, { headers: HEADERS })
            : await fetch(server.url, { method: 'POST', headers: HEADERS, body });
          if (!answer.ok) throw new Error(`${query.name}: ${answer.status} ${await answer.text()}`);
        }
        await load(server, bodies, 2);
      }
      for (let round = 0; round < ROUNDS; round += 1) {
        // Sides alternate their order round by round: a drift of the machine falls on both.
        const order = round % 2 === 0 ? servers.keys() : [...servers.keys()].reverse();
        for (const index of order)
          rounds[index]!.push(await load(servers[index]!, bodies, ROUND_SECONDS));
      }
      for (const [index, side] of sides.entries()) {
        const of = rounds[index]!;
        const sum = (key: keyof Round) => of.reduce((total, round) => total + round[key], 0);
        const requests = sum('requests');
        console.log(
          `| ${query.name} | ${missesOnly(query) ? 'miss, records held' : 'hit'} | ${side.name} | ${format(requests / sum('seconds'))} | ${format(
            sum('cpuMicros') / requests,
          )} | ${format((1000 * sum('scavenges')) / requests, 2)} | ${format(
            (1000 * sum('scavengeMs')) / requests,
            1,
          )} | ${Math.max(...of.map((round) => round.p99))} | ${sum('errors')} |`,
        );
      }
      if (rounds.length === 2)
        ratios.push(`| ${query.name} | ${roundRatios(rounds[0]!, rounds[1]!)} |`);
    }
    if (ratios.length > 0) {
      // A machine whose speed drifts moves both sides' totals; each round's pair is measured
      // moments apart, so the median of their ratios is the steadier comparison.
      console.log(
        `\n| query | CPU per request, this checkout / ${AGAINST}: median of the rounds' ratios (range) |`,
      );
      console.log('|---|---:|');
      for (const row of ratios) console.log(row);
    }
  } finally {
    await Promise.allSettled([...servers, simulator].map((running) => running.stop()));
  }
}

await main();
