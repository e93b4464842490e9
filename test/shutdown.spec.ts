/**
 * Stopping `npm start` from outside, as a deploy or a closed terminal does: whoever gets the
 * signal (the group, npm, the gateway), once or twice, with the log reader there, gone or
 * paused, in-flight requests finish within SHUTDOWN_TIMEOUT_MS and every process exits 0 within
 * that plus a second (issues 10 and 18).
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Simulator, startSimulator } from '../src/simulator/index.js';
import { buildOnce, type GatewayProcess, post, startNpm, statusOf } from './support/npm-start.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from './support/redis.js';

const SHUTDOWN_TIMEOUT_MS = 2_000;
const BOUND_MS = SHUTDOWN_TIMEOUT_MS + 1_000;
/** The hang of issue 18 did not happen every time: enough trials to catch the race. */
const TRIALS = 20;
const QUERY = '{ charts { name } }';
/** Requests made while the reader is paused: their log lines are far more than a pipe holds. */
const REQUESTS = 400;

interface Outcome {
  readonly goneMs: number | null;
  readonly exit: { code: number | null; signal: NodeJS.Signals | null };
}

/** Signals, then waits for the whole group to be gone (killing what is left past the bound). */
async function stopAndWatch(
  gateway: GatewayProcess,
  signal: (gateway: GatewayProcess) => void,
): Promise<Outcome> {
  const since = performance.now();
  signal(gateway);
  const goneMs = await gateway.groupGoneWithin(since, BOUND_MS);
  if (goneMs === null) await gateway.kill();
  return { goneMs, exit: await gateway.exited };
}

function expectCleanExit(outcome: Outcome, gateway: GatewayProcess): void {
  expect({ ...outcome, output: outcome.goneMs === null ? gateway.output() : '' }).toMatchObject({
    goneMs: expect.any(Number),
    exit: { code: 0, signal: null },
  });
}

beforeAll(buildOnce, 180_000);

describe('with the log reader gone', () => {
  it(
    `every process exits 0 within SHUTDOWN_TIMEOUT_MS + 1 s, ${TRIALS} trials out of ${TRIALS}`,
    async () => {
      const failures: unknown[] = [];
      const stopTimes: number[] = [];
      for (let trial = 0; trial < TRIALS; trial += 1) {
        const gateway = await startNpm({ SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS) });
        try {
          expect(await statusOf(gateway.url, QUERY)).toBe(200);
          await gateway.closeReader();
          // Odd trials log into the dead pipe before the signal, even ones only on the way out.
          if (trial % 2 === 1) expect(await statusOf(gateway.url, QUERY)).toBe(200);
          const outcome = await stopAndWatch(gateway, (g) => g.signalGroup('SIGTERM'));
          if (outcome.goneMs === null || outcome.exit.code !== 0)
            failures.push({ trial, ...outcome });
          else stopTimes.push(outcome.goneMs);
        } finally {
          await gateway.kill();
        }
      }
      console.info(`stop times (ms) with the reader gone: ${stopTimes.join(' ')}`);
      expect(failures).toEqual([]);
    },
    TRIALS * 20_000,
  );
});

describe('with the log reader paused (a full pipe)', () => {
  it('keeps answering requests, then stops within the bound with the pipe still full', async () => {
    const gateway = await startNpm({
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      RATE_LIMIT_REQUESTS: '0',
    });
    try {
      gateway.pauseReader();
      // A long operation name makes each request's log line long: a few hundred hold far more
      // than the pipe (a socket pair, whose buffers take hundreds of KB) and the reader's buffer.
      const operation = 'PausedReader'.repeat(300);
      const named = `query ${operation} ${QUERY}`;
      const statuses: (number | string)[] = [];
      for (let request = 0; request < REQUESTS; request += 1)
        statuses.push(await statusOf(gateway.url, named));
      expect(statuses.filter((status) => status !== 200)).toEqual([]);

      const outcome = await stopAndWatch(gateway, (g) => g.signalGroup('SIGTERM'));
      expectCleanExit(outcome, gateway);

      // The reader never caught up while the gateway ran: the pipe was full, lines waited in the
      // gateway's bounded buffer, and the stop did not wait for them past its short flush.
      gateway.resumeReader();
      await gateway.outputEnded;
      const delivered = gateway
        .output()
        .split('\n')
        .filter((line) => line.includes(`"operation":"${operation}"`));
      expect(delivered.length).toBeLessThan(REQUESTS);
    } finally {
      await gateway.kill();
    }
  }, 120_000);
});

describe('with a request in flight', () => {
  let simulator: Simulator;
  beforeAll(async () => {
    simulator = await startSimulator({
      apiKeys: ['shutdown-key'],
      dailyLimit: 1_000_000,
      latencyMs: 800,
      artists: 40,
    });
  });
  afterAll(() => simulator?.close());

  /** A gateway on the test's simulator with one request waiting for the upstream's answer. */
  async function gatewayWithRequestInFlight(env: Record<string, string> = {}) {
    const gateway = await startNpm({
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      UPSTREAM_URL: simulator.url,
      UPSTREAM_API_KEY: 'shutdown-key',
      ...env,
    });
    simulator.resetCalls();
    const answer = post(gateway.url, QUERY);
    await expect.poll(() => simulator.calls.length, { timeout: 10_000 }).toBeGreaterThan(0);
    return { gateway, answer };
  }

  const signals: Record<string, (gateway: GatewayProcess) => void> = {
    'SIGTERM to the group': (g) => g.signalGroup('SIGTERM'),
    'SIGINT to the group (Ctrl-C)': (g) => g.signalGroup('SIGINT'),
    'SIGTERM to the group, twice': (g) => {
      g.signalGroup('SIGTERM');
      g.signalGroup('SIGTERM');
    },
    'SIGTERM to npm alone (npm as PID 1)': (g) => process.kill(g.pid, 'SIGTERM'),
    'SIGTERM to the gateway process alone': (g) => process.kill(g.gatewayPid(), 'SIGTERM'),
    'SIGTERM then SIGINT to the gateway process': (g) => {
      const pid = g.gatewayPid();
      process.kill(pid, 'SIGTERM');
      process.kill(pid, 'SIGINT');
    },
  };

  for (const [name, signal] of Object.entries(signals)) {
    it(`${name}: the request is answered, then every process exits 0 in time`, async () => {
      const { gateway, answer } = await gatewayWithRequestInFlight();
      try {
        const outcome = await stopAndWatch(gateway, signal);
        const answered = await answer;
        if (answered instanceof Error) throw answered;
        const charts = (JSON.parse(answered.text) as { data?: { charts?: unknown[] } }).data
          ?.charts;
        expect({ status: answered.status, charts: charts?.length }).toEqual({
          status: 200,
          charts: 3,
        });
        expectCleanExit(outcome, gateway);
      } finally {
        await gateway.kill();
      }
    }, 60_000);
  }

  it('with WORKERS=2 (a cluster), SIGTERM to the group twice: the request is answered, every process exits 0 in time', async () => {
    const prefix = uniquePrefix();
    const { gateway, answer } = await gatewayWithRequestInFlight({
      WORKERS: '2',
      REDIS_URL: SHARED_REDIS_URL,
      REDIS_KEY_PREFIX: prefix,
    });
    try {
      const outcome = await stopAndWatch(gateway, (g) => {
        g.signalGroup('SIGTERM');
        g.signalGroup('SIGTERM');
      });
      const answered = await answer;
      if (answered instanceof Error) throw answered;
      expect(answered.status).toBe(200);
      expectCleanExit(outcome, gateway);
    } finally {
      await gateway.kill();
      const redis = new Redis(SHARED_REDIS_URL);
      await deleteUnder(redis, prefix);
      redis.disconnect();
    }
  }, 60_000);

  it('a request slower than SHUTDOWN_TIMEOUT_MS is cut, and every process still exits 0 in time', async () => {
    simulator.setLatency(SHUTDOWN_TIMEOUT_MS + 5_000);
    try {
      const { gateway, answer } = await gatewayWithRequestInFlight();
      try {
        const outcome = await stopAndWatch(gateway, (g) => g.signalGroup('SIGTERM'));
        expectCleanExit(outcome, gateway);
        expect(await answer).toBeInstanceOf(Error);
      } finally {
        await gateway.kill();
      }
    } finally {
      simulator.setLatency(800);
    }
  }, 60_000);
});
