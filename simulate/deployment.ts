/**
 * A simulated deployment as operators run one: the replicas are separate
 * gateway processes (`src/main.ts`, as `npm start` runs it) on one Redis,
 * reached over HTTP; every process's calendar, the harness's included, runs
 * `speed` times faster than real time (running-clock.ts) while timers and
 * Redis keep real time; each view is sent when its simulated time comes,
 * however many are in flight; the replicas poll on their own timers
 * (REFRESH_POLL_SECONDS is the simulated interval divided by the speed).
 * The in-process harness (simulation.ts) advances one calendar view by view
 * instead; comparing the two shows what depends on how the plan is driven.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import { keyIdOf } from '../src/coordination/key-registry.js';
import { RedisBudgetLedger } from '../src/economy/redis-ledger.js';
import type { Simulator } from '../src/simulator/index.js';
import { DAY_MS, nextUtcMidnight } from '../src/time.js';
import { Clairvoyant } from './clairvoyant.js';
import { type DayRow, emptyRow } from './measures.js';
import type { SimulationOptions } from './options.js';
import { requestOf } from './pages.js';
import { deleteKeysUnder } from './replicas.js';
import { installRunningClock, runningClockEnv } from './running-clock.js';
import { countCalls, post, Scoring } from './scoring.js';
import type { SimulationResult } from './simulation.js';
import { Traffic } from './traffic.js';
import { API_KEY, startSimulatedUpstream } from './upstream.js';

/** Real time the replicas get to start before the first simulated day begins. */
const STARTUP_MS = 45_000;
const MINUTE_MS = 60_000;

interface Process {
  readonly url: string;
  readonly child: ChildProcess;
}

export async function runDeployment(
  options: SimulationOptions,
  progress: (line: string) => void = () => undefined,
): Promise<SimulationResult> {
  const started = performance.now();
  const realNow = Date.now();
  // Day 1 starts at a UTC midnight, STARTUP_MS of real time from now.
  const clock = {
    startAt: nextUtcMidnight(new Date(realNow)).getTime(),
    anchor: realNow + STARTUP_MS,
    speed: options.speed,
  };
  const restore = installRunningClock(clock);
  const prefix = `simulate-${randomUUID().slice(0, 8)}:`;
  let simulator: Simulator | undefined;
  const processes: Process[] = [];
  let ledger: DaysLedger | undefined;
  try {
    simulator = await startSimulatedUpstream(options);
    const env = {
      ...runningClockEnv(clock),
      UPSTREAM_URL: simulator.url,
      UPSTREAM_API_KEY: API_KEY,
      UPSTREAM_DAILY_LIMIT: String(options.limit),
      REDIS_URL: options.redisUrl,
      REDIS_KEY_PREFIX: prefix,
      // Views come from many users, sent here from one address.
      CLIENT_BUDGET_SHARE: '1',
      RATE_LIMIT_REQUESTS: '0',
      REFRESH_POLL_SECONDS: String(
        Math.max(1, Math.round((options.pollMinutes * MINUTE_MS) / options.speed / 1000)),
      ),
    };
    for (let i = 0; i < options.replicas; i += 1) processes.push(await startGateway(env));
    if (Date.now() >= clock.startAt)
      throw new Error(`the replicas took longer than ${STARTUP_MS / 1000} s to start`);
    const traffic = new Traffic(
      options,
      simulator.data.allArtists().map((artist) => artist.slug),
    );
    const scoring = new Scoring(simulator.data, options.refreshHourUtc);
    ledger = daysLedger(options, prefix);
    const clairvoyant = new Clairvoyant(
      options.limit,
      Math.ceil(DAY_MS / (options.pollMinutes * MINUTE_MS)),
    );
    const rows: DayRow[] = [];
    let sent = 0;
    for (let day = 1; day <= options.days; day += 1) {
      const dayStart = clock.startAt + (day - 1) * DAY_MS;
      const views = traffic.day(day, dayStart);
      const row = emptyRow(day);
      const head = scoring.headOf(views);
      const inFlight: Promise<void>[] = [];
      for (const view of views) {
        await untilCalendar(view.at, options.speed);
        const url = (processes[sent++ % processes.length] as Process).url;
        // The running calendar may be past `view.at` by the time the wait returns.
        const askedAt = Date.now();
        inFlight.push(
          post(url, requestOf(view)).then((answer) =>
            scoring.record(view, answer, row, head, askedAt),
          ),
        );
      }
      await Promise.all(inFlight);
      await untilCalendar(dayStart + DAY_MS, options.speed);
      row.byPurpose = await ledger.byPurpose(dayStart);
      countCalls(simulator, dayStart, row);
      const reference = clairvoyant.day(views);
      row.clairvoyantFull = reference.full;
      row.clairvoyantCalls = reference.calls;
      rows.push(row);
      progress(`day ${day}: ${row.views} views, ${row.calls} upstream calls`);
    }
    return { rows, wallSeconds: (performance.now() - started) / 1000, lateGenerations: 0 };
  } finally {
    ledger?.close();
    await Promise.all(processes.map((process) => stop(process.child)));
    await simulator?.close();
    await removeKeys(options.redisUrl, prefix);
    restore();
  }
}

interface DaysLedger {
  /** A whole day's calls by purpose, as the replicas' shared ledger counted them. */
  byPurpose(dayStart: number): Promise<DayRow['byPurpose']>;
  close(): void;
}

/**
 * The replicas' ledger, read for a chosen day once it is over: a read of `/metrics` near
 * midnight, with answers still in flight, met the next day's zeros when it landed late.
 */
function daysLedger(options: SimulationOptions, prefix: string): DaysLedger {
  const redis = new Redis(options.redisUrl, { keyPrefix: prefix });
  return {
    async byPurpose(dayStart) {
      const noon = () => new Date(dayStart + DAY_MS / 2);
      const ledger = new RedisBudgetLedger(redis, {
        dailyLimit: options.limit,
        clientShare: 1,
        now: noon,
      });
      const spent = await ledger.spending(keyIdOf(API_KEY));
      return { poll: spent.polled, refresh: spent.refreshed, firstTouch: spent.paced };
    },
    close: () => redis.disconnect(),
  };
}

/** Waits (on a timer) until the running calendar reads `epochMs`. */
async function untilCalendar(epochMs: number, speed: number): Promise<void> {
  for (;;) {
    const ahead = epochMs - Date.now();
    if (ahead <= 0) return;
    await new Promise((resolve) => setTimeout(resolve, Math.ceil(ahead / speed)));
  }
}

async function startGateway(env: Record<string, string>): Promise<Process> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--import', './simulate/running-clock-child.ts', 'src/main.ts'],
    {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        HOST: '127.0.0.1',
        PORT: '0',
        LOG_LEVEL: 'warn',
        // Each replica is one process: the harness counts replicas, not the machine's cores.
        WORKERS: '1',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /GraphQL \+ GraphiQL\s+(http:\/\/\S+)\/graphql/.exec(output);
      if (match?.[1] !== undefined) resolve(match[1].replace('localhost', '127.0.0.1'));
    });
    child.once('exit', (code) => reject(new Error(`a replica exited (${code}):\n${output}`)));
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

async function removeKeys(redisUrl: string, prefix: string): Promise<void> {
  const admin = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  await deleteKeysUnder(admin, prefix);
  admin.disconnect();
}
