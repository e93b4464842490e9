/**
 * Per-client rate limiting for server-key mode, where every client spends
 * the gateway's one upstream key: at most `requests` GraphQL requests per
 * `windowSeconds` per client, counted in fixed windows. Over the limit, the
 * client (and only it) gets RATE_LIMITED with HTTP 429 and Retry-After.
 *
 * A client is its IP address (the TCP peer). Behind a reverse proxy every
 * request comes from the proxy, so with `trustProxy` the client is the last
 * address of X-Forwarded-For, the one the proxy itself appended; earlier
 * entries are the client's own claim and never used. A client-chosen id
 * header is not used either: a client could rotate it at will.
 */
import type { IncomingMessage } from 'node:http';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { clientRateLimited } from '../../schema/errors.js';

export const DEFAULT_RATE_LIMIT_REQUESTS = 120;
export const DEFAULT_RATE_LIMIT_WINDOW_SECONDS = 60;
/** Clients tracked at once; the least recently seen are forgotten first. */
const MAX_CLIENTS = 100_000;

export interface ClientRateLimitOptions {
  readonly requests?: number;
  readonly windowSeconds?: number;
  readonly trustProxy?: boolean;
  readonly now?: () => number;
}

interface Window {
  readonly startedAt: number;
  count: number;
}

export function useClientRateLimit({
  requests = DEFAULT_RATE_LIMIT_REQUESTS,
  windowSeconds = DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
  trustProxy = false,
  now = Date.now,
}: ClientRateLimitOptions = {}): Plugin {
  if (!Number.isSafeInteger(requests) || requests < 1) throw new Error(`requests must be a positive integer: ${requests}`);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new Error(`windowSeconds must be a positive integer: ${windowSeconds}`);
  }
  const windowMs = windowSeconds * 1000;
  const windows = new LRUCache<string, Window>({ max: MAX_CLIENTS, ttl: windowMs, ttlAutopurge: false });

  return {
    onParams({ request, context }) {
      const client = clientOf(request, context as { req?: IncomingMessage }, trustProxy);
      const at = now();
      let window = windows.get(client);
      if (window === undefined || at - window.startedAt >= windowMs) {
        window = { startedAt: at, count: 0 };
        windows.set(client, window);
      }
      window.count += 1;
      if (window.count > requests) {
        throw clientRateLimited(Math.max(1, Math.ceil((window.startedAt + windowMs - at) / 1000)), requests, windowSeconds);
      }
    },
  };
}

function clientOf(request: Request, context: { req?: IncomingMessage }, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = request.headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return context.req?.socket?.remoteAddress ?? 'unknown';
}
