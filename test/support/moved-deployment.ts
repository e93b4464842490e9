/**
 * Gateway processes of one deployment on one Redis, with the budget plan on
 * and calendars the test moves (issue 15): each replica follows `moveTo`
 * over IPC (moved-clock-child.ts), and the simulator reads the same
 * calendar through its `now` option, so the upstream's day is theirs.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { demandKey } from '../../src/economy/redis-popularity.js';
import {
  type Simulator,
  type SimulatorOptions,
  startSimulator,
} from '../../src/simulator/index.js';
import { DAY_MS, nextUtcMidnight, utcDay } from '../../src/time.js';
import { deleteUnder, SHARED_REDIS_URL, uniquePrefix } from './redis.js';
import { type Replica, startReplica } from './replicas.js';
import { SERVER_KEY } from './stack.js';

/** Replicas start at the next real UTC midnight: a whole simulated day before the first turn. */
export const FIRST_DAY = nextUtcMidnight(new Date()).getTime();

/**
 * Yesterday's demand of a deployment that served the day before, asked evenly through it: the
 * plan's day is then the clock's line with the whole refresh allowance (not a first day).
 */
export const EVEN_YESTERDAY: readonly number[] = new Array<number>(24).fill(100);

/** The simulated calendar: `now` for the simulator, moved by the deployment. */
export interface Calendar {
  at: number;
  readonly now: () => Date;
}

export function calendarAt(at: number): Calendar {
  const calendar: Calendar = { at, now: () => new Date(calendar.at) };
  return calendar;
}

export interface MovedDeployment {
  readonly replicas: readonly Replica[];
  /** Every Redis key of the deployment starts with it. */
  readonly prefix: string;
  /** Moves the calendar forward, for the simulator and every replica; resolves once all hold it. */
  moveTo(epochMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMovedDeployment(
  calendar: Calendar,
  upstreamUrl: string,
  env: Record<string, string>,
  count = 3,
  /** Records asked by hour the day before the calendar's: absent, the deployment is new. */
  yesterday?: readonly number[],
): Promise<MovedDeployment> {
  const prefix = uniquePrefix();
  if (yesterday !== undefined) await seedYesterday(prefix, calendar.at, yesterday);
  const replicas = await Promise.all(
    Array.from({ length: count }, () =>
      startReplica(
        {
          UPSTREAM_URL: upstreamUrl,
          UPSTREAM_API_KEY: SERVER_KEY,
          REDIS_URL: SHARED_REDIS_URL,
          REDIS_KEY_PREFIX: prefix,
          BUDGET_PLAN: 'true',
          // Views come from many users: no client's share of the day stands in the way.
          CLIENT_BUDGET_SHARE: '1',
          ...env,
        },
        { movedClock: true },
      ),
    ),
  );
  const moveTo = async (epochMs: number) => {
    calendar.at = epochMs;
    await Promise.all(replicas.map((replica) => replica.setClock(epochMs)));
  };
  await moveTo(calendar.at);
  return {
    replicas,
    prefix,
    moveTo,
    async close() {
      await Promise.all(replicas.map((replica) => replica.stop()));
      const redis = new Redis(SHARED_REDIS_URL);
      await deleteUnder(redis, prefix);
      redis.disconnect();
    },
  };
}

/** Writes the day before `at`'s demand by hour as the deployment's popularity store keeps it. */
async function seedYesterday(prefix: string, at: number, hours: readonly number[]): Promise<void> {
  const redis = new Redis(SHARED_REDIS_URL, { keyPrefix: prefix });
  const key = demandKey(utcDay(new Date(at - DAY_MS)));
  await redis
    .multi()
    .hset(key, Object.fromEntries(hours.map((count, hour) => [String(hour), count])))
    // Read once, when the deployment's first day is planned; the cleanup removes it before then anyway.
    .pexpire(key, 10 * 60_000)
    .exec();
  redis.disconnect();
}

/** What `useMovedDeployment` has started, once the file's tests run. */
export interface MovedSetup {
  readonly simulator: Simulator;
  readonly deployment: MovedDeployment;
  readonly replicas: readonly Replica[];
}

/**
 * A simulator on `calendar` and `count` replicas against it, started before the file's tests and
 * closed after them: the setup every test of the plan needs.
 */
export function useMovedDeployment(
  calendar: Calendar,
  simulatorOptions: Omit<SimulatorOptions, 'apiKeys' | 'now'>,
  env: Record<string, string>,
  count = 3,
  yesterday?: readonly number[],
): MovedSetup {
  let simulator: Simulator | undefined;
  let deployment: MovedDeployment | undefined;
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the deployment starts in beforeAll');
    return value;
  };
  beforeAll(async () => {
    simulator = await startSimulator({
      apiKeys: [SERVER_KEY],
      now: calendar.now,
      ...simulatorOptions,
    });
    deployment = await startMovedDeployment(calendar, simulator.url, env, count, yesterday);
  });
  afterAll(async () => {
    await deployment?.close();
    await simulator?.close();
  });
  return {
    get simulator() {
      return started(simulator);
    },
    get deployment() {
      return started(deployment);
    },
    get replicas() {
      return started(deployment).replicas;
    },
  };
}
