/**
 * Retries for idempotent GETs: only when the upstream may answer differently
 * a moment later (no connection, 500/502/503/504), never on a 4xx, and never
 * past the request's deadline. The upstream documents its 500 as "an
 * unexpected error occurred", which a GET may well not meet twice.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { UpstreamError } from './errors.js';

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  readonly maxAttempts: number;
  /** Delay before the first retry; doubled for each further one, with full jitter. */
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
}

const RETRIABLE_STATUSES = new Set([500, 502, 503, 504]);

export function isRetriable(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.code !== 'UPSTREAM_ERROR') return false;
  // A full queue of our own is not the upstream's fault, and retrying would only add to it.
  if (error.reason === 'overloaded') return false;
  // The ledger is down: a retry within this request would meet the same outage.
  if (error.reason === 'uncountable' || error.reason === 'circuit-open') return false;
  return error.status === undefined || RETRIABLE_STATUSES.has(error.status);
}

/**
 * Runs `attempt` until it succeeds, fails for good, or the next wait would
 * end after `deadline` (a `performance.now()` time: a duration, never the
 * wall clock). A Retry-After from the upstream replaces the computed back-off.
 * A deadline reached while waiting fails with the last failure, not an abort.
 */
export async function withRetries<T>(
  attempt: () => Promise<T>,
  policy: RetryPolicy,
  deadline: number,
  signal: AbortSignal,
): Promise<T> {
  for (let attemptNumber = 1; ; attemptNumber++) {
    try {
      return await attempt();
    } catch (error) {
      if (attemptNumber >= policy.maxAttempts || !isRetriable(error)) throw error;
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attemptNumber - 1));
      const retryAfterMs =
        error instanceof UpstreamError && error.retryAfterSeconds !== undefined
          ? error.retryAfterSeconds * 1000
          : undefined;
      const delay = retryAfterMs ?? Math.random() * backoff;
      if (performance.now() + delay >= deadline) throw error;
      try {
        await sleep(delay, undefined, { signal });
      } catch {
        throw error;
      }
    }
  }
}
