/**
 * Refuses, before it runs, an operation (a subscription: each of its events)
 * whose worst-case upstream calls exceed `maxCost`: a QUERY_TOO_COSTLY error
 * with the estimate and the maximum, and no upstream call. The estimate is
 * the one the request's context was made with (request-spending.ts); the
 * cost report shows it too (`extensions.cost.estimated`).
 *
 * It runs at execution rather than as a validation rule because list sizes
 * come from variables (`first: $first`), which validation does not see.
 */
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { queryTooCostly } from '../../http-errors.js';
import type { GatewayContext } from '../../schema/context.js';
import { DEFAULT_MAX_UPSTREAM_COST } from '../../setting-defaults.js';

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
  const limit = ({
    args,
    setResultAndStopExecution,
  }: {
    args: { contextValue: GatewayContext };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  }): void => {
    const upstreamCalls = args.contextValue.spending.estimatedCalls;
    if (upstreamCalls > maxCost)
      setResultAndStopExecution({ errors: [queryTooCostly(upstreamCalls, maxCost)] });
  };
  // A subscription's selection is resolved again for every event, for every subscriber: each
  // event may cost what a query of the same selection would, so the same limit applies.
  return { onExecute: limit, onSubscribe: limit };
}
