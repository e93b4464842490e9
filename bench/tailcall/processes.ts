/**
 * The processes `npm run bench:tailcall` runs and reads: the simulator, ours as `npm start` runs
 * it, Tailcall, each in its own process group; their CPU time and resident memory read from
 * /proc over the whole process tree (ours' workers included), so that what the load generator
 * spends is in neither.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, openSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../test/support/redis.js';

/** The checkout these scripts belong to. */
export const MAIN = new URL('../..', import.meta.url).pathname;
const HERE = new URL('.', import.meta.url).pathname;
export const RUN_DIR = mkdtempSync(join(tmpdir(), 'bench-tailcall-'));
const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());

export interface Running {
  readonly url: string;
  readonly pid: number;
  /** Milliseconds from spawn to the port accepting connections. */
  readonly readyMs: number;
  stop(): Promise<void>;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function started(
  name: string,
  child: ChildProcess,
  port: number,
  spawnedAt: number,
  path: string,
): Promise<Running> {
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const deadline = spawnedAt + 60_000;
  while (!(await accepts(port))) {
    if (exited || performance.now() > deadline)
      throw new Error(`${name} did not come up on port ${port}; see ${RUN_DIR}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  const readyMs = performance.now() - spawnedAt;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    pid: child.pid!,
    readyMs,
    async stop() {
      if (exited) return;
      const gone = once(child, 'exit');
      process.kill(-child.pid!, 'SIGTERM');
      const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await gone;
      clearTimeout(timer);
    },
  };
}

function spawnLogged(name: string, command: string, args: string[], env: NodeJS.ProcessEnv) {
  const logFile = openSync(join(RUN_DIR, `${name}.log`), 'a');
  return spawn(command, args, {
    cwd: MAIN,
    env,
    detached: true,
    // ours' request log goes to stdout, as `npm start` writes it; discarded, as bench/run.ts does
    stdio: ['ignore', name.startsWith('ours') ? 'ignore' : logFile, logFile],
  });
}

export async function startSimulator(latencyMs: number, key: string): Promise<Running> {
  const port = await freePort();
  const at = performance.now();
  const child = spawnLogged('simulator', process.execPath, ['dist/simulator/main.js'], {
    ...process.env,
    SIMULATOR_PORT: String(port),
    SIMULATOR_HOST: '127.0.0.1',
    SIMULATOR_LATENCY_MS: String(latencyMs),
    SIMULATOR_API_KEYS: key,
    SIMULATOR_DAILY_LIMIT: String(Number.MAX_SAFE_INTEGER),
  });
  return started('simulator', child, port, at, '');
}

/** The slugs of the simulator's first `count` artists by streams, as its leaderboard lists them. */
export async function leaderboardSlugs(
  simulator: Running,
  key: string,
  count: number,
): Promise<string[]> {
  const leaderboard = await fetch(`${simulator.url}/api/v1/leaderboard/streams?limit=${count}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return ((await leaderboard.json()) as { slug: string }[]).map((artist) => artist.slug);
}

/**
 * Has ours prove the client's key with one read (`slug`'s name): in pass-through mode ours
 * answers from its response cache only for a key the upstream has accepted, so a query that
 * makes no call of its own would never be a hit before.
 */
export async function proveKey(
  ours: Running,
  headers: Record<string, string>,
  slug: string,
): Promise<void> {
  const body = JSON.stringify({ query: `{ artist(slug: ${JSON.stringify(slug)}) { name } }` });
  await (await fetch(ours.url, { method: 'POST', headers, body })).text();
}

let oursCount = 0;

/** Ours as `npm start` runs it against an upstream: pass-through mode, production, log at info. */
export async function startOurs(
  upstreamUrl: string,
  extraEnv: NodeJS.ProcessEnv,
  checkout = MAIN,
  nodeArgs: readonly string[] = [],
): Promise<Running> {
  const port = await freePort();
  const name = `ours-${++oursCount}`;
  const at = performance.now();
  const main = join(checkout, 'dist/main.js');
  const child = spawnLogged(name, process.execPath, [...nodeArgs, main], {
    ...process.env,
    NODE_ENV: 'production',
    UPSTREAM_URL: upstreamUrl,
    UPSTREAM_API_KEY: '',
    UPSTREAM_DAILY_LIMIT: '100000000',
    // a single load generator is one client: the per-client limit would refuse it
    RATE_LIMIT_REQUESTS: '0',
    PORT: String(port),
    HOST: '127.0.0.1',
    BUDGET_FILE: join(RUN_DIR, `${name}.budget.json`),
    ...extraEnv,
  });
  return started(name, child, port, at, '/graphql');
}

let bareCount = 0;

/** The transport alone (bare-group.ts), replaying the answer in `answerFile`. */
export async function startBareGroup(answerFile: string): Promise<Running> {
  const port = await freePort();
  const at = performance.now();
  const child = spawnLogged(
    `bare-${++bareCount}`,
    process.execPath,
    ['--import', 'tsx', join(HERE, 'bare-group.ts')],
    { ...process.env, BARE_PORT: String(port), BARE_ANSWER: answerFile },
  );
  return started('bare group', child, port, at, '/graphql');
}

let tailcallCount = 0;

export async function startTailcall(
  binary: string,
  preload: string,
  upstreamUrl: string,
  key: string,
): Promise<Running> {
  const port = await freePort();
  const name = `tailcall-${++tailcallCount}`;
  const config = join(RUN_DIR, `${name}.graphql`);
  writeFileSync(
    config,
    readFileSync(join(HERE, 'tailcall.graphql'), 'utf8')
      .replaceAll('%UPSTREAM%', upstreamUrl)
      .replaceAll('%KEY%', key)
      .replaceAll('%PORT%', String(port)),
  );
  const at = performance.now();
  const child = spawnLogged(name, binary, ['start', config], {
    ...process.env,
    LD_PRELOAD: preload,
  });
  return started(name, child, port, at, '/graphql');
}

/** The process and every process under it (ours' workers). */
export function tree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  const all = [pid];
  for (let index = 0; index < all.length; index++) all.push(...(parents.get(all[index]!) ?? []));
  return all;
}

/** User and system CPU time of the process tree, in microseconds. */
export function cpuMicros(pid: number): number {
  let ticks = 0;
  for (const member of tree(pid)) {
    try {
      const fields = readFileSync(`/proc/${member}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone meanwhile
    }
  }
  return (ticks * 1e6) / CLOCK_TICKS;
}

/**
 * Resident memory of the process tree, in bytes: `rss` sums each process's resident set, so a
 * page several processes share (the node binary, libraries) counts once per process; `pss` sums
 * their proportional shares, so such a page counts once in all (what the tree costs the machine).
 */
export function residentBytes(pid: number): { rss: number; pss: number } {
  let rss = 0;
  let pss = 0;
  for (const member of tree(pid)) {
    try {
      const rollup = readFileSync(`/proc/${member}/smaps_rollup`, 'utf8');
      rss += Number(/^Rss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
      pss += Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
    } catch {
      // gone meanwhile
    }
  }
  return { rss: rss * 1024, pss: pss * 1024 };
}

/** Tailcall's binary and the library to preload (prepare.sh installs and patches them). */
export function prepareTailcall(): { binary: string; preload: string } {
  const [binary, preload] = execFileSync('bash', [join(HERE, 'prepare.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  })
    .trim()
    .split('\n');
  return { binary: binary!, preload: preload! };
}
