/**
 * The ways an upstream read can fail, as the gateway's clients see them.
 * Each kind is also the GraphQL `extensions.code` of the resulting error, so
 * the mapping from upstream status to client-facing code lives in this file only.
 */
import type { ErrorCode } from '../error-codes.js';

/** The part of the gateway's codes (src/error-codes.ts) an upstream read can fail with. */
export type UpstreamErrorCode = Extract<
  ErrorCode,
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'UNAUTHENTICATED'
  | 'RATE_LIMITED'
  | 'UPSTREAM_ERROR'
  | 'UPSTREAM_INVALID_RESPONSE'
>;

export interface UpstreamErrorDetails {
  /** HTTP status the upstream answered, when it answered at all. */
  readonly status?: number;
  /** Path (without query or host) of the upstream request, for logs only. */
  readonly path?: string;
  /** ISO instant at which a daily budget resets (RATE_LIMITED only). */
  readonly resetsAt?: string;
  /** Seconds the upstream asked us to wait (Retry-After), when it said so. */
  readonly retryAfterSeconds?: number;
  /**
   * Why no answer came, when none did: the gateway's own queue was full, the upstream was slow, or unreachable,
   * or the call was never sent because the shared budget ledger could not count it.
   */
  readonly reason?: 'overloaded' | 'timeout' | 'unreachable' | 'uncountable' | 'circuit-open';
  readonly cause?: unknown;
}

export class UpstreamError extends Error {
  override readonly name = 'UpstreamError';
  readonly status: number | undefined;
  readonly path: string | undefined;
  readonly resetsAt: string | undefined;
  readonly retryAfterSeconds: number | undefined;
  readonly reason: UpstreamErrorDetails['reason'];

  constructor(
    readonly code: UpstreamErrorCode,
    message: string,
    details: UpstreamErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.status = details.status;
    this.path = details.path;
    this.resetsAt = details.resetsAt;
    this.retryAfterSeconds = details.retryAfterSeconds;
    this.reason = details.reason;
  }

  /** Failures worth answering from a stale cache entry: the upstream, not the question, is at fault. */
  get isTransient(): boolean {
    return this.code === 'UPSTREAM_ERROR' || this.code === 'RATE_LIMITED';
  }
}

/** No answer came in time: the call's own deadline, or a wait on another read's call. */
export function upstreamTimedOut(path?: string): UpstreamError {
  return new UpstreamError(
    'UPSTREAM_ERROR',
    'The upstream API did not answer in time',
    path === undefined ? { reason: 'timeout' } : { path, reason: 'timeout' },
  );
}

/** Maps a non-2xx upstream status to the error clients see. */
export function errorForStatus(
  status: number,
  upstreamMessage: string,
  path: string,
  extra: Pick<UpstreamErrorDetails, 'resetsAt' | 'retryAfterSeconds'> = {},
): UpstreamError {
  const details = { status, path, ...extra };
  if (status === 404)
    return new UpstreamError('NOT_FOUND', upstreamMessage || 'Not found', details);
  if (status === 400 || status === 422) {
    return new UpstreamError('BAD_USER_INPUT', upstreamMessage || 'Invalid parameters', details);
  }
  if (status === 401 || status === 403) {
    return new UpstreamError(
      'UNAUTHENTICATED',
      upstreamMessage || 'Invalid or revoked API key',
      details,
    );
  }
  if (status === 429) {
    return new UpstreamError(
      'RATE_LIMITED',
      upstreamMessage || 'Daily request limit reached',
      details,
    );
  }
  return new UpstreamError('UPSTREAM_ERROR', `The upstream API answered ${status}`, details);
}
