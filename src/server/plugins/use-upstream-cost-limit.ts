/**
 * Refuses, before it runs, an operation whose worst-case upstream calls
 * exceed `maxCost`: a QUERY_TOO_COSTLY error with the estimate and the
 * maximum, and no upstream call. The estimate of every operation, refused or
 * not, is kept for the cost report (`extensions.cost.estimated`).
 *
 * It runs at execution rather than as a validation rule because list sizes
 * come from variables (`first: $first`), which validation does not see.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../schema/context.js';
import { queryTooCostly } from '../../schema/errors.js';
import { estimateUpstreamCost } from '../../schema/upstream-cost.js';

export const DEFAULT_MAX_UPSTREAM_COST = 100;

const estimates = new WeakMap<object, number>();

/** The estimate made for this request's context, if the operation got as far as execution. */
export function estimatedCostOf(context: object): number | undefined {
  return estimates.get(context);
}

export interface UpstreamCostLimitOptions {
  /** Worst-case upstream calls allowed per operation. */
  readonly maxCost?: number;
}

export function useUpstreamCostLimit({
  maxCost = DEFAULT_MAX_UPSTREAM_COST,
}: UpstreamCostLimitOptions = {}): Plugin<GatewayContext> {
  if (!Number.isSafeInteger(maxCost) || maxCost < 0) {
    throw new Error(`maxCost must be a non-negative integer: ${maxCost}`);
  }
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const { upstreamCalls } = estimateUpstreamCost(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues,
      );
      estimates.set(args.contextValue, upstreamCalls);
      if (upstreamCalls > maxCost)
        setResultAndStopExecution({ errors: [queryTooCostly(upstreamCalls, maxCost)] });
    },
  };
}
