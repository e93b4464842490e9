/**
 * Refuses, before it runs, an operation whose worst-case upstream calls
 * exceed `maxCost`: a QUERY_TOO_COSTLY error with the estimate and the
 * maximum, and no upstream call. The estimate of every operation, refused or
 * not, is kept for the cost report (`extensions.cost.estimated`).
 *
 * It runs at execution rather than as a validation rule because list sizes
 * come from variables (`first: $first`), which validation does not see.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { GatewayContext } from '../../schema/context.js';
import { queryTooCostly } from '../../schema/errors.js';
import { estimateUpstreamCost } from '../../schema/upstream-cost.js';

export const DEFAULT_MAX_UPSTREAM_COST = 100;
/** Documents whose estimates are kept, and estimates kept per document (one per operation name and variables). */
const DOCUMENTS_KEPT = 1_000;
const ESTIMATES_PER_DOCUMENT = 64;

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
  // Yoga's parser cache hands every request with the same text the same DocumentNode, so a
  // repeated operation is estimated once; list sizes come from variables, hence the inner key.
  const byDocument = new LRUCache<DocumentNode, LRUCache<string, number>>({ max: DOCUMENTS_KEPT });
  const estimateOf = (args: {
    schema: GraphQLSchema;
    document: DocumentNode;
    operationName?: string | null;
    variableValues?: unknown;
  }): number => {
    let estimates = byDocument.get(args.document);
    if (estimates === undefined) {
      estimates = new LRUCache({ max: ESTIMATES_PER_DOCUMENT });
      byDocument.set(args.document, estimates);
    }
    const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? null)}`;
    let upstreamCalls = estimates.get(key);
    if (upstreamCalls === undefined) {
      upstreamCalls = estimateUpstreamCost(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues,
      ).upstreamCalls;
      estimates.set(key, upstreamCalls);
    }
    return upstreamCalls;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const upstreamCalls = estimateOf(args);
      estimates.set(args.contextValue, upstreamCalls);
      if (upstreamCalls > maxCost)
        setResultAndStopExecution({ errors: [queryTooCostly(upstreamCalls, maxCost)] });
    },
  };
}
