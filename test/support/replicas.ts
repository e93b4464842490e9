/**
 * Gateway processes started the way an operator starts them (`tsx
 * src/main.ts` with environment variables), for tests where several replicas,
 * restarts or exit statuses matter. Each prints its URL once listening.
 */
import { type ChildProcess, type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { type GraphQLResponse, postGraphQL } from './stack.js';
import { until } from './until.js';

/** One process per replica (the tsx CLI would add a parent process in between, which SIGKILL would orphan). */
const COMMAND = [process.execPath, '--import', 'tsx', 'src/main.ts'] as const;
const STARTUP_TIMEOUT_MS = 60_000;

export interface Replica {
  readonly url: string;
  readonly process: ChildProcess;
  /** Everything the process printed, stdout and stderr. */
  output(): string;
  query(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GraphQLResponse>;
  ready(): Promise<number>;
  /** SIGKILL (a crash) unless told otherwise. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** Moves the replica's calendar forward to `epochMs` (started with `movedClock`); resolves once it holds. */
  setClock(epochMs: number): Promise<void>;
}

export interface ReplicaOptions {
  /** The process's calendar starts at the next real UTC midnight and follows `setClock` (moved-clock-child.ts). */
  readonly movedClock?: boolean;
  /** The calendar starts this far from the real one instead (implies `movedClock`). */
  readonly clockOffsetMs?: number;
}

/** Environment every test replica shares: quiet, no per-client request limit unless a test sets one. */
const BASE_ENV = {
  HOST: '127.0.0.1',
  PORT: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_REQUESTS: '0',
  // The plan paces the day by the wall clock; tests of other things must not depend on the hour they run at.
  BUDGET_PLAN: 'false',
  // One process per replica: a test of replicas counts them, whatever cores the machine has.
  WORKERS: '1',
};

function spawnGateway(
  env: Record<string, string>,
  { movedClock: moved = false, clockOffsetMs }: ReplicaOptions = {},
) {
  const movedClock = moved || clockOffsetMs !== undefined;
  const offsetEnv =
    clockOffsetMs === undefined ? {} : { MOVED_CLOCK_OFFSET_MS: String(clockOffsetMs) };
  const [node, ...args] = COMMAND;
  const clockArgs = movedClock ? ['--import', './test/support/moved-clock-child.ts'] : [];
  // A budget file of its own (a test may name another): the default, the checkout's
  // .gateway/budget.json, is the operator's. Only a gateway without Redis writes it, creating its
  // folder then (a replica left running by a timed-out hook leaves no empty folder behind); the
  // folder goes once the process has exited.
  const folder = join(tmpdir(), `gateway-replica-${randomUUID()}`);
  const child = spawn(node, [...args.slice(0, 2), ...clockArgs, ...args.slice(2)], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      ...BASE_ENV,
      BUDGET_FILE: join(folder, 'budget.json'),
      ...offsetEnv,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe', movedClock ? 'ipc' : 'ignore'],
  }) as ChildProcessByStdio<null, Readable, Readable>;
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  child.once('exit', removeFolder);
  child.once('error', removeFolder);
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

export async function startReplica(
  env: Record<string, string>,
  options: ReplicaOptions = {},
): Promise<Replica> {
  const { child, output: printed } = spawnGateway(env, options);

  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running without a test to stop it.
      child.kill('SIGKILL');
      reject(new Error(`replica did not start:\n${printed()}`));
    }, STARTUP_TIMEOUT_MS);
    const look = () => {
      const match = /GraphQL \+ GraphiQL\s+(http:\/\/\S+)\/graphql/.exec(printed());
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1].replace('localhost', '127.0.0.1'));
    };
    child.stdout.on('data', look);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica exited with status ${code}:\n${printed()}`));
    });
  });

  return {
    url,
    process: child,
    output: printed,
    query: (query, variables, headers = {}) => postGraphQL(url, query, variables, headers),
    async ready() {
      return (await fetch(`${url}/ready`)).status;
    },
    async stop(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill(signal);
      await exited;
    },
    async setClock(epochMs) {
      if (child.send === undefined) throw new Error('replica was started without movedClock');
      const answered = new Promise<void>((resolve) => {
        const onMessage = (message: { clockAt?: number }) => {
          if ((message.clockAt ?? 0) < epochMs) return;
          child.off('message', onMessage);
          resolve();
        };
        child.on('message', onMessage);
      });
      child.send({ clockAt: epochMs });
      await answered;
    },
  };
}

/** Runs the gateway to its end (it is expected to refuse to start); resolves with its status and output. */
export async function runToExit(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { child, output } = spawnGateway(env);
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output: output() };
}

export { until } from './until.js';

/**
 * Waits for the first poll `polls` counts, then for `more` after it: how many came, and in how
 * many whole seconds (rounded up). A deployment polling once per interval of a second, however
 * many processes try, makes at most one a second, give or take one.
 */
export async function pollsSeen(
  polls: () => number,
  more: number,
): Promise<{ readonly made: number; readonly seconds: number }> {
  await until(() => polls() >= 1);
  const first = polls();
  const started = performance.now();
  await until(() => polls() >= first + more);
  return { made: polls() - first, seconds: Math.ceil((performance.now() - started) / 1000) };
}
