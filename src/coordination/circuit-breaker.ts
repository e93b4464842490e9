/**
 * A circuit breaker for the upstream: after `failureThreshold` transient
 * failures in a row (5xx, timeouts, refused connections) the circuit opens
 * and no call leaves for `openMs`: no budget is spent on an upstream that is
 * down, stale answers stand in, and cold reads fail at once instead of
 * waiting out their deadline. Then one probe call is let through
 * (half-open); its success closes the circuit, its failure opens it again.
 *
 * One seam, two breakers side by side: one process's own
 * (local-circuit-breaker.ts), and that one with an open state every replica
 * shares through Redis (redis-circuit-breaker.ts).
 */
import { UpstreamError } from '../upstream/errors.js';

export type CircuitState = 'closed' | 'open' | 'half-open';

export interface CircuitOptions {
  readonly failureThreshold: number;
  readonly openMs: number;
}

export const DEFAULT_CIRCUIT: CircuitOptions = { failureThreshold: 5, openMs: 30_000 };

export interface CircuitBreaker {
  /** Throws UPSTREAM_ERROR (reason `circuit-open`) when no call may leave now. */
  admit(): Promise<void>;
  /** A call that left got an answer the upstream meant (any status but a transient failure). */
  succeeded(): void;
  /** A call that left failed transiently. */
  failed(): void;
  /** This process's view, for /ready and metrics. */
  readonly state: CircuitState;
}

export function circuitOpenError(): UpstreamError {
  return new UpstreamError(
    'UPSTREAM_ERROR',
    'The upstream API is failing; calls are paused for a moment',
    {
      reason: 'circuit-open',
    },
  );
}

/** Whether a failure says the upstream itself is in trouble (not the question, not our own queue). */
export function isUpstreamFailure(error: unknown): boolean {
  if (!(error instanceof UpstreamError) || error.code !== 'UPSTREAM_ERROR') return false;
  if (
    error.reason === 'overloaded' ||
    error.reason === 'circuit-open' ||
    error.reason === 'uncountable'
  )
    return false;
  return error.status === undefined || error.status >= 500;
}
