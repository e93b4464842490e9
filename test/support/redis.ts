/**
 * Redis for tests: the shared one on 127.0.0.1:6379 (required, never
 * skipped), each test under its own key prefix, and a redis-server of the
 * test's own on a free port for tests that stop Redis.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { Redis } from 'ioredis';
import { until } from './replicas.js';

export const SHARED_REDIS_URL = 'redis://127.0.0.1:6379';

export function uniquePrefix(): string {
  return `test-${randomUUID().slice(0, 8)}:`;
}

/** Redis's own clock (`TIME`), in ms: the clock that decides how long a shared cache entry stays fresh. */
export async function redisNowMs(redis: Redis): Promise<number> {
  const [seconds, micros] = await redis.time();
  return Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
}

/**
 * Until Redis's clock has moved `durationMs` past `fromMs` (read with redisNowMs): what was
 * stored by then, fresh for less than `durationMs`, is stale for every replica.
 */
export async function untilRedisPassed(redis: Redis, fromMs: number, durationMs: number) {
  await until(async () => (await redisNowMs(redis)) > fromMs + durationMs);
}

/** PTTL's answer for a key that has no time to live (-2: the key is gone, e.g. expired since a scan). */
export const NO_TTL = -1;

/** Every key under `prefix`, with its remaining time to live in ms (-1: none). */
export async function keysUnder(redis: Redis, prefix: string): Promise<Map<string, number>> {
  const found = new Map<string, number>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    cursor = next;
    for (const key of keys) found.set(key, await redis.pttl(key));
  } while (cursor !== '0');
  return found;
}

export async function deleteUnder(redis: Redis, prefix: string): Promise<void> {
  const keys = [...(await keysUnder(redis, prefix)).keys()];
  if (keys.length > 0) await redis.del(...keys);
}

export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

/**
 * This process's environment without libfaketime's variables: Redis keeps real time, like the
 * shared one, when the tests run under `faketime` (which redis-server does not survive: it hangs
 * at start in libfaketime's clock_gettime).
 */
export function realClockEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([name]) => name !== 'LD_PRELOAD' && !name.startsWith('FAKETIME'),
    ),
  );
}

/** A redis-server without persistence on `port`, stopped by `stop()`. */
export async function startOwnRedis(port: number): Promise<{ url: string; stop(): Promise<void> }> {
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore', env: realClockEnv() },
  );
  const url = `redis://127.0.0.1:${port}`;
  const probe = new Redis(url, {
    lazyConnect: true,
    retryStrategy: () => 50,
    maxRetriesPerRequest: 0,
  });
  probe.on('error', () => undefined);
  await until(async () => (await probe.ping().catch(() => '')) === 'PONG');
  probe.disconnect();
  return {
    url,
    async stop() {
      // Killed by a signal, a process has no exit code: its 'exit' has been and will not come again.
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
