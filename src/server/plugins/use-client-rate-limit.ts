/**
 * Per-client rate limiting for server-key mode, where every client spends
 * the gateway's one upstream key: at most `requests` GraphQL requests per
 * `windowSeconds` per client (client-identity.ts says who a client is).
 * Over the limit, the client (and only it) gets RATE_LIMITED with HTTP 429
 * and Retry-After.
 *
 * Counted by rate-limiter-flexible: in Redis when the gateway has one, so
 * the limit holds across replicas, with an in-memory limiter standing in
 * while Redis is unreachable; in the primary's memory for the workers of one
 * machine without Redis (its RateLimiterClusterMaster, gateway/machine-stores.ts);
 * in memory otherwise.
 */
import type { IncomingMessage } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import {
  type RateLimiterAbstract,
  RateLimiterCluster,
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
} from 'rate-limiter-flexible';
import { clientRateLimited } from '../../http-errors.js';
import type { RedisClient } from '../../redis/connection.js';
import {
  DEFAULT_RATE_LIMIT_REQUESTS,
  DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
} from '../../setting-defaults.js';
import { clientAddress, clientIdOf, clientOf } from '../client-identity.js';
import type { RequestContext, ServerContext } from '../server-context.js';

export interface ClientRateLimitOptions {
  readonly requests?: number;
  readonly windowSeconds?: number;
  readonly trustProxy?: boolean;
  /** Shared counts across replicas (one Redis or a cluster: one key per client); absent: this process's memory. */
  readonly redis?: RedisClient;
  /** Without Redis, counted by the primary of this machine's workers (node:cluster). */
  readonly machine?: boolean;
  /** Where the counts live, so that several limiters do not share them. */
  readonly keyPrefix?: string;
}

/** One request of `client` counted; how long it must wait when it is over its limit. */
export interface ClientRateLimiter {
  readonly requests: number;
  readonly windowSeconds: number;
  readonly trustProxy: boolean;
  /** Resolves to null when allowed, else the seconds to wait. */
  consume(clientId: string): Promise<number | null>;
}

export function createClientRateLimiter({
  requests = DEFAULT_RATE_LIMIT_REQUESTS,
  windowSeconds = DEFAULT_RATE_LIMIT_WINDOW_SECONDS,
  trustProxy = false,
  redis,
  machine = false,
  keyPrefix = 'rate-limit',
}: ClientRateLimitOptions = {}): ClientRateLimiter {
  if (!Number.isSafeInteger(requests) || requests < 1)
    throw new Error(`requests must be a positive integer: ${requests}`);
  if (!Number.isSafeInteger(windowSeconds) || windowSeconds < 1) {
    throw new Error(`windowSeconds must be a positive integer: ${windowSeconds}`);
  }
  const limits = { points: requests, duration: windowSeconds, keyPrefix };
  const limiter: RateLimiterAbstract =
    redis === undefined
      ? machine
        ? new RateLimiterCluster(limits)
        : new RateLimiterMemory(limits)
      : new RateLimiterRedis(
          Object.assign({}, limits, {
            storeClient: redis,
            rejectIfRedisNotReady: true,
            insuranceLimiter: new RateLimiterMemory(limits),
          }),
        );

  return {
    requests,
    windowSeconds,
    trustProxy,
    async consume(clientId) {
      try {
        await limiter.consume(clientId);
        return null;
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      }
    },
  };
}

/**
 * Counts one request of `clientId`: its RATE_LIMITED refusal, or null when it may go on. The one
 * decision for Yoga's requests (the plugin below) and response-cache hits (fast-path.ts).
 */
export async function rateLimitRefusal(
  limiter: ClientRateLimiter,
  clientId: string,
): Promise<GraphQLError | null> {
  const retryAfterSeconds = await limiter.consume(clientId);
  return retryAfterSeconds === null
    ? null
    : clientRateLimited(retryAfterSeconds, limiter.requests, limiter.windowSeconds);
}

/**
 * The same for a request the node:http listener answers before Yoga (a response-cache hit,
 * GraphiQL's page): the client told from the raw request, as `clientOf` tells it from Yoga's.
 */
export function requestRateLimitRefusal(
  limiter: ClientRateLimiter,
  req: IncomingMessage,
): Promise<GraphQLError | null> {
  const forwardedFor = req.headers['x-forwarded-for'];
  const address = clientAddress(
    Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor,
    req.socket.remoteAddress,
    limiter.trustProxy,
  );
  return rateLimitRefusal(limiter, clientIdOf(address));
}

/** The limit as a Yoga plugin: over it, RATE_LIMITED with HTTP 429 before anything else runs. */
export function useClientRateLimit(
  limiter: ClientRateLimiter,
): Plugin<RequestContext, ServerContext> {
  return {
    async onParams({ request, context }) {
      const client = clientOf(request, context, limiter.trustProxy);
      const refusal = await rateLimitRefusal(limiter, client);
      if (refusal !== null) throw refusal;
    },
  };
}
