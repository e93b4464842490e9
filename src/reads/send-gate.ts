/**
 * What must hold before a call leaves, and what the circuit learns once it
 * is back. The gate is asked in the call's connection slot (client.ts), so a
 * queued call spends nothing and can still be refused; its checks run in the
 * order that spends least: an upstream known to be down costs nothing, and
 * the request's own cap refuses before the day's budget (or the plan) is
 * touched.
 */
import { type CircuitBreaker, isUpstreamFailure } from '../coordination/circuit-breaker.js';
import type { Allocator } from '../economy/allocator.js';
import type { BudgetLedger, Spender } from '../economy/ledger.js';
import type { Purpose } from '../economy/spending-plan.js';
import type { SendGate, UpstreamClient } from '../upstream/client.js';
import { UpstreamError } from '../upstream/errors.js';
import type { Caller } from './caller.js';
import type { RequestStats } from './request-stats.js';

export interface GateInputs {
  readonly circuit: CircuitBreaker;
  readonly budget: BudgetLedger;
  readonly client: UpstreamClient;
  /** The day's plan, when it applies to this caller; absent: the daily limit alone. */
  readonly planned: Allocator | undefined;
  readonly caller: Caller;
  readonly stats: RequestStats;
  readonly purpose: Purpose;
  /** The request's key: the plan ranks records by it. */
  readonly key: string;
}

export function sendGate({
  circuit,
  budget,
  client,
  planned,
  caller,
  stats,
  purpose,
  key,
}: GateInputs): SendGate {
  return {
    async admit() {
      // An upstream known to be down costs nothing: no call, no budget.
      await circuit.admit();
      // The request's own cap first: a call it refuses spends nothing of the day.
      stats.countCall();
      const spender: Spender = {
        keyId: caller.keyId,
        ...(caller.clientId === undefined ? {} : { clientId: caller.clientId }),
      };
      try {
        await (planned === undefined
          ? budget.reserve(spender)
          : planned.reserve(spender, purpose, key));
      } catch (error) {
        stats.upstreamCalls -= 1;
        throw error;
      }
      // The request goes upstream: whatever else it reads will need connections too.
      if (stats.upstreamCalls === 1) client.expectCalls(stats.estimatedCalls);
    },
    rateLimited: (error) => budget.rateLimited(caller.keyId, error),
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
