/**
 * Adds `extensions.cost` to every response Yoga answers (answer-parts/cost-extension.ts
 * writes it, for response-cache hits too). Fields answered from held data that was not
 * current are listed in `extensions.stale`: each one's GraphQL path and the data's age.
 * `estimated` is the worst case the request's context was made with
 * (request-spending.ts); the key's figures are read as reported-budget.ts says.
 * Records left out of lists are listed in `extensions.warnings`. With
 * @defer/@stream the report is on the last payload, deferred reads included.
 */
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { BudgetUsage } from '../../economy/ledger.js';
import type { GatewayContext } from '../../schema/context.js';
import { andThen, type MaybePromise } from '../../schema/maybe-promise.js';
import { costExtension } from '../answer-parts/cost-extension.js';
import type { ReportedBudget } from '../answer-parts/reported-budget.js';
import { onFinalResult } from './on-final-result.js';

export function useCostReport(reported: ReportedBudget): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone: (done) =>
          onFinalResult(done, ({ args, result, setResult }) =>
            andThen(withCostReport(result, args.contextValue, reported), (reportedResult) =>
              setResult(reportedResult),
            ),
          ),
      };
    },
  };
}

/** `result` with the request's cost report in its extensions (the miss lane's answers use it too). */
export function withCostReport(
  result: ExecutionResult,
  context: GatewayContext,
  reported: ReportedBudget,
): MaybePromise<ExecutionResult> {
  const { report, spending, caller, loader } = context;
  const finish = (usage: BudgetUsage): ExecutionResult => {
    const stale = loader.staleFields();
    const extensions: Record<string, unknown> = Object.assign({}, result.extensions, {
      cost: costExtension(
        {
          estimated: spending.estimatedCalls,
          upstreamCalls: report.upstreamCalls,
          cacheHits: report.cacheHits,
          deduplicated: report.deduplicated,
        },
        usage,
      ),
    });
    if (stale.length > 0) extensions.stale = stale;
    if (report.warnings.length > 0) extensions.warnings = report.warnings;
    return Object.assign({}, result, { extensions });
  };
  // A client sees its own spending, and the figures it was refused by, as they are now.
  if (report.upstreamCalls > 0 || (result.errors?.length ?? 0) > 0)
    return reported.now(caller.keyId).then(finish);
  return andThen(reported.recent(caller.keyId), finish);
}
