/**
 * What an upstream failure becomes for the reader. "Not found" is an answer,
 * kept like a record for its own TTL. A refused key is the client's mistake
 * when it is the client's key, and an outage when it is the gateway's. A 429
 * tells when the day resets. And a held entry answers any failure that is
 * the upstream's rather than the question's.
 */
import type { KeyRegistry } from '../coordination/key-registry.js';
import type { BudgetLedger } from '../economy/ledger.js';
import type { UpstreamRequest } from '../upstream/endpoints.js';
import { UpstreamError } from '../upstream/errors.js';
import type { UpstreamNotices } from '../upstream/upstream-notices.js';
import type { Caller } from './caller.js';

export interface TriageInputs {
  readonly keys: KeyRegistry;
  readonly budget: BudgetLedger;
  readonly notices: UpstreamNotices;
}

/**
 * Resolves with the upstream's message when the failure is the answer "not
 * found"; otherwise throws the error the reader gets.
 */
export async function notFoundOrThrow(
  error: unknown,
  request: UpstreamRequest<unknown>,
  caller: Caller,
  { keys, budget, notices }: TriageInputs,
): Promise<string> {
  if (!(error instanceof UpstreamError)) throw error;
  switch (error.code) {
    case 'NOT_FOUND': {
      if (caller.mode === 'client') await keys.markAccepted(caller.keyId);
      return error.message;
    }
    case 'BAD_USER_INPUT':
      if (request.assumption !== undefined) notices.assumptionContradicted(request, error.message);
      throw error;
    case 'UNAUTHENTICATED':
      if (caller.mode === 'server') {
        // The gateway's own key failing is an outage for clients, not their mistake.
        throw new UpstreamError(
          'UPSTREAM_ERROR',
          "The upstream API rejected the gateway's API key",
          {
            status: error.status,
            path: error.path,
          },
        );
      }
      await Promise.all([keys.markRejected(caller.keyId), budget.forget(caller.keyId)]);
      throw error;
    case 'RATE_LIMITED':
      throw new UpstreamError('RATE_LIMITED', error.message, {
        status: error.status,
        path: error.path,
        resetsAt: error.resetsAt ?? budget.resetsAt(),
        ...(error.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: error.retryAfterSeconds }),
      });
    default:
      throw error;
  }
}

/** Whether a held entry answers this failure in place of the error. */
export function heldAnswers(error: unknown): boolean {
  // Any failure that is the upstream's, a garbled 200 included, is answered by a stale entry;
  // so is a call the day's budget or plan does not make: a record once read is never refused.
  return (
    error instanceof UpstreamError &&
    (error.isTransient || error.code === 'UPSTREAM_INVALID_RESPONSE')
  );
}

/** The upstream refused the client's own key: the whole request fails with 401, whatever answered it. */
export function clientKeyRefused(error: unknown, caller: Caller): boolean {
  return (
    error instanceof UpstreamError && error.code === 'UNAUTHENTICATED' && caller.mode === 'client'
  );
}
