/**
 * The one Redis connection of a gateway process (ioredis), shared by the
 * cache, the budget ledger, the key registry, single flight and the rate
 * limiter. Every key is written under `prefix` (ioredis' keyPrefix) and with
 * a TTL, so a deployment's data is bounded and easy to find.
 *
 * Commands fail at once while the connection is down (no offline queue):
 * each caller then falls back on its own terms (L1 cache, no uncountable
 * upstream call) instead of piling up behind a dead socket. ioredis keeps
 * reconnecting in the background, so the gateway recovers by itself.
 */
import { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { ConfigError } from '../config-error.js';

export interface SharedRedis {
  readonly client: Redis;
  /** True while commands can be sent; /ready reports false otherwise. */
  isUp(): boolean;
  close(): Promise<void>;
}

/** Longest wait for one command; past it the caller treats Redis as down. */
const COMMAND_TIMEOUT_MS = 1_000;
const CONNECT_TIMEOUT_MS = 2_000;
/** Reconnect back-off ceiling: a returning Redis is found within about a second. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/** Connects to `url`; throws ConfigError (exit status 2) when Redis cannot be reached at start. */
export async function connectRedis(
  url: string,
  prefix: string,
  logger: Logger,
): Promise<SharedRedis> {
  const client = new Redis(url, {
    keyPrefix: prefix,
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(100 * times, MAX_RECONNECT_DELAY_MS),
  });
  let lastError: Error | undefined;
  // Without a listener ioredis prints every failed reconnect to stderr; the state changes below are what matter.
  client.on('error', (error: Error) => {
    lastError = error;
  });
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    const reason = (lastError ?? (error as Error)).message;
    throw new ConfigError(
      `Invalid configuration:\n  REDIS_URL: cannot reach Redis at ${redactedUrl(url)} (${reason})`,
    );
  }

  let up = true;
  client.on('close', () => {
    if (!up) return;
    up = false;
    logger.warn(
      { error: lastError?.message },
      'redis down: serving from the in-process cache, no uncountable upstream calls',
    );
  });
  client.on('ready', () => {
    if (up) return;
    up = true;
    logger.info('redis up again');
  });

  return {
    client,
    isUp: () => client.status === 'ready',
    async close() {
      await client.quit().catch(() => client.disconnect());
    },
  };
}

/** The URL without its password, for messages. */
export function redactedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}
