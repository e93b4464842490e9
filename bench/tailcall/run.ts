/**
 * `npm run bench:tailcall`: ours against Tailcall 1.6.14 (a Rust GraphQL gateway over REST), in
 * one run on one machine, against one upstream simulator.
 *
 * 1. Both are asked every query (the varying page for each of its artists) and must answer the
 *    same data, after normalize() (queries.ts), before anything is measured.
 * 2. Warm: per query, a warm-up of each, then rounds ours, Tailcall, Tailcall, ours (autocannon in
 *    this process): req/s, CPU µs per request of each server's process tree, the worse round's p99.
 * 3. First request of a fresh process: per query, fresh processes of each alternately, the first
 *    request's wall time once the port accepts, and the time from spawn to accepting.
 * 4. Resident memory of each after the warm runs: resident sets summed over the process tree,
 *    and proportional set sizes summed (pages the processes share counted once).
 * 5. The transport alone, for the queries whose cost is mostly its own ({ __typename }, one
 *    artist): a group of bare node:http servers (bare-group.ts, one per core as ours' workers)
 *    replaying ours' exact answer, in rounds with both: what any node:http server reaches here.
 *
 * Settings: LATENCY_MS (the simulator's, default 50), ROUND_SECONDS (5), WARM_SECONDS (2),
 * CONNECTIONS (10), ARTISTS (the varying page's slugs, default 100), FRESH_REPEATS (3),
 * ONLY (comma list of query keys: typename, artist, top20, chart, page, pages),
 * OURS_ENV (extra settings for ours, e.g. `WORKERS=1`; AGAINST_ENV for the other checkout, by
 * default the same), OURS_NODE_ARGS and AGAINST_NODE_ARGS
 * (Node and V8 flags for ours and for the other checkout: a runtime setting against the
 * default, with AGAINST this very checkout), CHECK_ONLY=1 (answers only),
 * AGAINST (another checkout of ours, built, measured in Tailcall's place: a change to the request
 * path against the commit before it, in one sitting).
 * Ours runs from dist/ (built first with `npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { format, median } from '../figures.js';
import { answerHeaders, type CapturedAnswer, capture } from '../http-capture.js';
import { nodeArgsSetting, numberSetting } from '../settings.js';
import { postLoad } from './post-load.js';
import {
  cpuMicros,
  leaderboardSlugs,
  prepareTailcall,
  RUN_DIR,
  type Running,
  residentBytes,
  startBareGroup,
  startOurs,
  startSimulator,
  startTailcall,
} from './processes.js';
import { type Bodies, chosenQueries, loadBodies, type PeerQuery } from './queries.js';

const number = (name: string, fallback: number) => numberSetting(name, fallback);
const LATENCY_MS = number('LATENCY_MS', 50);
const ROUND_SECONDS = number('ROUND_SECONDS', 5);
const WARM_SECONDS = number('WARM_SECONDS', 2);
const CONNECTIONS = number('CONNECTIONS', 10);
const ARTISTS = number('ARTISTS', 100);
const FRESH_REPEATS = number('FRESH_REPEATS', 3);
const settings = (name: string) =>
  Object.fromEntries(
    (process.env[name] ?? '')
      .split(/\s+/)
      .filter(Boolean)
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  );
const OURS_ENV = settings('OURS_ENV');
const AGAINST_ENV = process.env.AGAINST_ENV === undefined ? OURS_ENV : settings('AGAINST_ENV');
const AGAINST = process.env.AGAINST?.trim() || undefined;
const OURS_NODE_ARGS = nodeArgsSetting('OURS_NODE_ARGS');
const AGAINST_NODE_ARGS = nodeArgsSetting('AGAINST_NODE_ARGS');
const PEER = AGAINST === undefined ? 'Tailcall' : 'the other checkout';
const KEY = 'bench-key';
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json',
  // Node's fetch asks for gzip unless told: ours would compress its first answers (Tailcall
  // does not) and the bench would inflate them, where the load rounds ask for neither.
  'accept-encoding': 'identity',
  // ours is in pass-through mode: the client's key is the upstream's
  authorization: `Bearer ${KEY}`,
};
type Who = 'ours' | 'tailcall';
const WHO: readonly Who[] = ['ours', 'tailcall'];
/** Whose schema a side is asked in: the other checkout of ours is asked as ours is. */
const asked = (who: Who): Who => (AGAINST === undefined ? who : 'ours');

async function post(url: string, body: string): Promise<{ ms: number; data: unknown }> {
  const at = performance.now();
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body });
  const text = await response.text();
  const ms = performance.now() - at;
  const parsed = JSON.parse(text) as { data?: unknown; errors?: unknown };
  if (response.status !== 200 || parsed.errors !== undefined)
    throw new Error(`${url} answered ${response.status}: ${text.slice(0, 400)}`);
  return { ms, data: parsed.data };
}

interface Round {
  readonly requests: number;
  readonly seconds: number;
  readonly cpuMicros: number;
  readonly p99: number;
  readonly errors: number;
}

/** A load round of one body, or of a new body each request. */
async function load(server: Running, bodies: Bodies, seconds: number): Promise<Round> {
  const before = cpuMicros(server.pid);
  const result = await postLoad({
    url: server.url,
    headers: HEADERS,
    connections: CONNECTIONS,
    seconds,
    bodies,
  });
  return {
    requests: result['2xx'],
    seconds: result.duration,
    cpuMicros: cpuMicros(server.pid) - before,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

const slugsOf = (query: PeerQuery, slugs: readonly string[]) =>
  query.varying ? slugs : slugs.slice(0, 1);

/** Every body of the query gets the same data from both, or the run stops here. */
async function checkAnswers(
  servers: Record<Who, Running>,
  queries: readonly PeerQuery[],
  slugs: readonly string[],
): Promise<void> {
  console.log('| query | requests compared | same data |');
  console.log('|---|---:|---|');
  for (const query of queries) {
    const compared = slugsOf(query, slugs);
    for (const [index, slug] of compared.entries()) {
      const request = query.varying ? index : undefined;
      const [ours, tailcall] = await Promise.all(
        WHO.map(async (who) =>
          query.normalize(
            asked(who),
            (await post(servers[who].url, query.body(asked(who), slug, request))).data,
          ),
        ),
      );
      if (!isDeepStrictEqual(ours, tailcall)) {
        const file = join(RUN_DIR, `differ-${query.key}-${slug}.json`);
        writeFileSync(file, JSON.stringify({ ours, tailcall }, null, 1));
        throw new Error(`${query.name} (${slug}): the answers differ; both in ${file}`);
      }
    }
    console.log(`| ${query.name} | ${compared.length} | yes |`);
  }
}

interface Warm {
  readonly rate: Record<Who, number>;
  readonly cpu: Record<Who, number>;
  readonly p99: Record<Who, number>;
  readonly errors: number;
}

async function warm(
  servers: Record<Who, Running>,
  query: PeerQuery,
  slugs: readonly string[],
): Promise<Warm> {
  const bodies = (who: Who): Bodies => loadBodies(query, asked(who), slugs);
  for (const who of WHO) await load(servers[who], bodies(who), WARM_SECONDS);
  const rounds: Record<Who, Round[]> = { ours: [], tailcall: [] };
  for (const who of ['ours', 'tailcall', 'tailcall', 'ours'] as const)
    rounds[who].push(await load(servers[who], bodies(who), ROUND_SECONDS));
  const sum = (who: Who, key: keyof Round) =>
    rounds[who].reduce((total, round) => total + round[key], 0);
  const of = (measure: (who: Who) => number) =>
    ({ ours: measure('ours'), tailcall: measure('tailcall') }) as Record<Who, number>;
  return {
    rate: of((who) => sum(who, 'requests') / sum(who, 'seconds')),
    cpu: of((who) => sum(who, 'cpuMicros') / sum(who, 'requests')),
    p99: of((who) => Math.max(...rounds[who].map((round) => round.p99))),
    errors: sum('ours', 'errors') + sum('tailcall', 'errors'),
  };
}

/** Queries whose cost is mostly the transport's: each measured against the transport alone too. */
const TRANSPORT_BOUND = new Set(['typename', 'artist']);

/** A row of ours, the peer and the transport alone (bare-group.ts) sending ours' answer. */
async function againstTransport(
  servers: Record<Who, Running>,
  query: PeerQuery,
  slugs: readonly string[],
): Promise<string> {
  const body = query.body('ours', slugs[0]!);
  const answer = await capture(servers.ours.url, body, HEADERS);
  const file = join(RUN_DIR, `answer-${query.key}.json`);
  const captured: CapturedAnswer = {
    status: answer.status,
    headers: answerHeaders(answer.headers),
    bodyBase64: answer.body.toString('base64'),
  };
  writeFileSync(file, JSON.stringify(captured));
  const bare = await startBareGroup(file);
  try {
    const replayed = await capture(bare.url, body, HEADERS);
    if (!replayed.body.equals(answer.body) || replayed.status !== answer.status)
      throw new Error(`${query.name}: the bare group did not replay ours' answer`);
    const sides = { ours: servers.ours, tailcall: servers.tailcall, bare } as const;
    const bodies = (side: keyof typeof sides): Bodies =>
      side === 'bare' ? body : loadBodies(query, asked(side), slugs);
    for (const side of ['ours', 'tailcall', 'bare'] as const)
      await load(sides[side], bodies(side), WARM_SECONDS);
    const rounds = { ours: [] as Round[], tailcall: [] as Round[], bare: [] as Round[] };
    for (const side of ['ours', 'tailcall', 'bare', 'bare', 'tailcall', 'ours'] as const)
      rounds[side].push(await load(sides[side], bodies(side), ROUND_SECONDS));
    const sum = (side: keyof typeof sides, key: keyof Round) =>
      rounds[side].reduce((total, round) => total + round[key], 0);
    const rate = (side: keyof typeof sides) => sum(side, 'requests') / sum(side, 'seconds');
    const cpu = (side: keyof typeof sides) => sum(side, 'cpuMicros') / sum(side, 'requests');
    return (
      `| ${query.name} | ${format(rate('bare'))} | ${format(cpu('bare'))} | ` +
      `**${format(rate('ours') / rate('bare'), 2)}** | **${format(rate('tailcall') / rate('bare'), 2)}** | ` +
      `${format(rate('ours') / rate('tailcall'), 2)} |`
    );
  } finally {
    await bare.stop();
  }
}

interface Fresh {
  readonly firstMs: Record<Who, number>;
  readonly readyMs: Record<Who, number>;
}

async function fresh(
  start: Record<Who, () => Promise<Running>>,
  query: PeerQuery,
  slug: string,
): Promise<Fresh> {
  const first: Record<Who, number[]> = { ours: [], tailcall: [] };
  const ready: Record<Who, number[]> = { ours: [], tailcall: [] };
  for (let repeat = 0; repeat < FRESH_REPEATS; repeat++) {
    for (const who of repeat % 2 === 0 ? WHO : [...WHO].reverse()) {
      const server = await start[who]();
      try {
        first[who].push((await post(server.url, query.body(asked(who), slug))).ms);
        ready[who].push(server.readyMs);
      } finally {
        await server.stop();
      }
    }
  }
  return {
    firstMs: { ours: median(first.ours), tailcall: median(first.tailcall) },
    readyMs: { ours: median(ready.ours), tailcall: median(ready.tailcall) },
  };
}

async function main(): Promise<void> {
  const queries = chosenQueries();
  const tailcallFiles = AGAINST === undefined ? prepareTailcall() : undefined;
  console.error('building ours (npm run build)');
  execFileSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no', 'src'], {
    encoding: 'utf8',
  }).trim();

  const simulator = await startSimulator(LATENCY_MS, KEY);
  const running: Running[] = [simulator];
  const start: Record<Who, () => Promise<Running>> = {
    ours: () => startOurs(simulator.url, OURS_ENV, undefined, OURS_NODE_ARGS),
    tailcall: () =>
      AGAINST === undefined
        ? startTailcall(tailcallFiles!.binary, tailcallFiles!.preload, simulator.url, KEY)
        : startOurs(simulator.url, AGAINST_ENV, AGAINST, AGAINST_NODE_ARGS),
  };
  try {
    const servers = { ours: await start.ours(), tailcall: await start.tailcall() };
    running.push(servers.ours, servers.tailcall);
    const slugs = await leaderboardSlugs(simulator, KEY, ARTISTS);

    console.log('# Ours against Tailcall (npm run bench:tailcall)\n');
    console.log(
      `${cpus().length} × ${cpus()[0]?.model.trim()}, Node ${process.version}, load average ` +
        `${loadavg()
          .map((load) => load.toFixed(2))
          .join(' ')}; ours at ${commit}${dirty === '' ? '' : ' with changes in src/'}` +
        `${Object.keys(OURS_ENV).length > 0 ? ` (${process.env.OURS_ENV})` : ''}` +
        `${OURS_NODE_ARGS.length > 0 ? ` (node ${OURS_NODE_ARGS.join(' ')})` : ''}; ` +
        `${AGAINST === undefined ? 'Tailcall 1.6.14' : `against ${AGAINST}`}` +
        `${AGAINST_NODE_ARGS.length > 0 ? ` (node ${AGAINST_NODE_ARGS.join(' ')})` : ''}; ` +
        `simulator latency ${LATENCY_MS} ms; autocannon, ${CONNECTIONS} connections, rounds ` +
        `ours, ${PEER}, ${PEER}, ours of ${ROUND_SECONDS} s after ${WARM_SECONDS} s of each.\n`,
    );
    await checkAnswers(servers, queries, slugs);
    if (process.env.CHECK_ONLY === '1') return;

    const rows: string[] = [];
    for (const query of queries) {
      console.error(`warm: ${query.name}`);
      const result = await warm(servers, query, slugs);
      rows.push(
        `| ${query.name}${query.varying ? ` (${slugs.length} artists)` : ''} | ` +
          `${format(result.rate.ours)} | ${format(result.rate.tailcall)} | ` +
          `**${format(result.rate.ours / result.rate.tailcall, 2)}** | ` +
          `${format(result.cpu.ours)} / ${format(result.cpu.tailcall)} | ` +
          `${result.p99.ours} / ${result.p99.tailcall} | ${result.errors} |`,
      );
    }
    const memory = {
      ours: residentBytes(servers.ours.pid),
      tailcall: residentBytes(servers.tailcall.pid),
    };
    const transportRows: string[] = [];
    for (const query of queries.filter((candidate) => TRANSPORT_BOUND.has(candidate.key))) {
      console.error(`transport: ${query.name}`);
      transportRows.push(await againstTransport(servers, query, slugs));
    }
    console.log(
      `\n| query | ours req/s | ${PEER} req/s | ours / ${PEER} | CPU µs per request, ours / ${PEER} | p99 ms, ours / ${PEER} | errors |`,
    );
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const row of rows) console.log(row);
    const mib = (bytes: number) => format(bytes / 1024 / 1024);
    console.log(
      `\nResident memory after the warm runs, each process's resident set summed: ours ` +
        `${mib(memory.ours.rss)} MiB, ${PEER} ${mib(memory.tailcall.rss)} MiB ` +
        `(${format(memory.ours.rss / memory.tailcall.rss, 1)}×); pages shared between processes ` +
        `counted once (proportional set size): ours ${mib(memory.ours.pss)} MiB, ${PEER} ` +
        `${mib(memory.tailcall.pss)} MiB (${format(memory.ours.pss / memory.tailcall.pss, 1)}×).`,
    );

    if (transportRows.length > 0) {
      console.log(
        `\nThe transport alone: a group of bare node:http servers, one per core, replaying ours' answer ` +
          `(rounds ours, ${PEER}, bare, bare, ${PEER}, ours):\n`,
      );
      console.log(
        `| query | bare req/s | bare CPU µs per request | ours / bare | ${PEER} / bare | ours / ${PEER} |`,
      );
      console.log('|---|---:|---:|---:|---:|---:|');
      for (const row of transportRows) console.log(row);
    }

    if (FRESH_REPEATS > 0) {
      await servers.ours.stop();
      await servers.tailcall.stop();
      console.log(
        `\nFirst request of a fresh process (median of ${FRESH_REPEATS} each, alternately; ` +
          'timed once the port accepts connections):\n',
      );
      console.log(
        `| query | first request ms, ours / ${PEER} | ours − ${PEER} ms | spawn to accepting ms, ours / ${PEER} |`,
      );
      console.log('|---|---:|---:|---:|');
      for (const query of queries.filter((candidate) => candidate.cold)) {
        console.error(`fresh: ${query.name}`);
        const result = await fresh(start, query, slugs[0]!);
        console.log(
          `| ${query.name} | ${format(result.firstMs.ours)} / ${format(result.firstMs.tailcall)} | ` +
            `${format(result.firstMs.ours - result.firstMs.tailcall)} | ` +
            `${format(result.readyMs.ours)} / ${format(result.readyMs.tailcall)} |`,
        );
      }
    }
  } finally {
    await Promise.allSettled(running.map((server) => server.stop()));
    console.error(`logs in ${RUN_DIR}`);
  }
}

await main();
