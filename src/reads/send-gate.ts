/**
 * What must hold before a call leaves, and what the circuit learns once it
 * is back. The gate is asked in the call's connection slot (client.ts), so a
 * queued call spends nothing and can still be refused; its checks run in the
 * order that spends least: an upstream known to be down costs nothing, and
 * the request's own cap refuses before the day's budget (or the plan) is
 * touched. A request's first touches are taken together (whole-request-hold.ts).
 */
import { type CircuitBreaker, isUpstreamFailure } from '../coordination/circuit-breaker.js';
import type { BudgetLedger } from '../economy/ledger.js';
import type { Purpose } from '../economy/spending-plan.js';
import type { SendGate, UpstreamClient } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import type { Caller } from './caller.js';
import type { ReadPolicy } from './read-policy.js';
import type { RequestSpending } from './request-spending.js';

export interface GateInputs {
  readonly circuit: CircuitBreaker;
  readonly budget: BudgetLedger;
  readonly client: UpstreamClient;
  /** How the caller's calls are taken from the day: the plan's, or the daily limit's. */
  readonly policy: ReadPolicy;
  readonly caller: Caller;
  readonly spending: RequestSpending;
  readonly purpose: Purpose;
  /** The request's key: the plan ranks records by it. */
  readonly key: string;
  /** The first call was taken beforehand, from the request's hold (whole-request-hold.ts), counted on this UTC day. */
  readonly prepaidOn?: string;
  /** Asked first: whether this call is still to be made (a background refresh's lease). */
  readonly claim?: () => Promise<void>;
}

export function sendGate({
  circuit,
  budget,
  client,
  policy,
  caller,
  spending,
  purpose,
  key,
  prepaidOn,
  claim,
}: GateInputs): SendGate & { unusedPrepaid(): string | undefined } {
  /** The day of the hold that paid for the first call, until that call leaves. */
  let prepaid = prepaidOn;
  /** The UTC day the call in flight is counted on. */
  let countedOn = prepaidOn;
  return {
    async admit() {
      await claim?.();
      // An upstream known to be down costs nothing: no call, no budget.
      await circuit.admit();
      // The request's own cap first: a call it refuses spends nothing of the day.
      const counted = spending.countCall();
      if (prepaid !== undefined) {
        // Its hold paid for this call, on a day that may be over by now; a retry is a call of its own.
        const heldOn = prepaid;
        prepaid = undefined;
        countedOn = await budget.dayTurned(caller.keyId, heldOn);
      } else {
        try {
          countedOn = await policy.reserve(caller, purpose, key);
        } catch (error) {
          spending.uncountCall();
          throw error;
        }
      }
      // The request goes upstream: whatever else it reads will need connections too.
      if (counted === 1) client.expectCalls(spending.estimatedCalls);
    },
    async answered() {
      // On its way at midnight, the call may count on the upstream's new day: so it does here.
      if (countedOn !== undefined) countedOn = await budget.dayTurned(caller.keyId, countedOn);
    },
    rateLimited: (error) => budget.rateLimited(caller.keyId, error),
    unusedPrepaid: () => prepaid,
  };
}

/**
 * The call, its outcome told to the circuit: only a failure that is the
 * upstream's own counts against it, and any status the upstream meant (a
 * 404, a 429) shows it is up.
 */
export function toldToCircuit<R>(
  circuit: CircuitBreaker,
  call: () => Promise<R>,
): () => Promise<R> {
  return () =>
    call().then(
      (response) => {
        circuit.succeeded();
        return response;
      },
      (error: unknown) => {
        if (isUpstreamFailure(error)) circuit.failed();
        else if (error instanceof UpstreamError && error.status !== undefined) circuit.succeeded();
        throw error;
      },
    );
}
