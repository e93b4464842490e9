/**
 * The upstream's 429s and the gateway's own refusals of a call, in one
 * place and in the same words: a daily limit reached (until midnight UTC),
 * a pause (its Retry-After), a client's share of the day spent, a call the
 * shared ledger could not record. The ledgers (src/economy/) raise them;
 * client-messages.ts words a 429 the same way.
 */
import { UpstreamError } from './errors.js';

/** The upstream's own wording when a key's day is spent (upstream-api.md, Errors). */
const DAILY_LIMIT_MESSAGE = /^Daily limit of \d+ requests reached\b/;
/** Pause after a 429 that is not the daily one and names no Retry-After. */
export const DEFAULT_PAUSE_MS = 10_000;

export type RateLimitKind =
  | { readonly kind: 'daily' }
  | { readonly kind: 'pause'; readonly ms: number };

export function rateLimitKindOf(error: UpstreamError): RateLimitKind {
  if (DAILY_LIMIT_MESSAGE.test(error.message)) return { kind: 'daily' };
  const ms =
    error.retryAfterSeconds === undefined
      ? DEFAULT_PAUSE_MS
      : Math.ceil(error.retryAfterSeconds * 1000);
  return { kind: 'pause', ms: Math.max(1, ms) };
}

export function budgetSpent(resetsAt: string): UpstreamError {
  return new UpstreamError(
    'RATE_LIMITED',
    'The daily upstream request budget of this API key is spent',
    { resetsAt },
  );
}

export function keyPaused(ms: number, resetsAt: string): UpstreamError {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return new UpstreamError(
    'RATE_LIMITED',
    `The upstream API asked for a pause; retry in ${seconds} s`,
    {
      resetsAt,
      retryAfterSeconds: seconds,
    },
  );
}

export function clientShareSpent(cap: number, resetsAt: string): UpstreamError {
  return new UpstreamError(
    'RATE_LIMITED',
    `This client has used its share of today's upstream budget (${cap} calls); cached data is still served`,
    { resetsAt },
  );
}

/** How soon a call the ledger could not record may be tried again: a reconnection or a failover's time. */
export const NOT_RECORDED_RETRY_SECONDS = 1;

/**
 * The shared ledger could not record a call where it would survive, so the call does not leave:
 * Redis did not answer (`unreachable`), or no replica acknowledged the count in time
 * (`unacknowledged`: a failover could lose it). Nothing is spent that the day cannot remember.
 */
export function callNotRecorded(
  why: 'unreachable' | 'unacknowledged',
  resetsAt: string,
  cause: unknown,
): UpstreamError {
  const what =
    why === 'unreachable'
      ? 'The gateway cannot count upstream calls while its shared store is unreachable'
      : 'The gateway could not record this upstream call where a Redis failover would keep it';
  return new UpstreamError(
    'RATE_LIMITED',
    `${what}; cached data is still served. Retry in ${NOT_RECORDED_RETRY_SECONDS} s`,
    { resetsAt, retryAfterSeconds: NOT_RECORDED_RETRY_SECONDS, reason: 'uncountable', cause },
  );
}
