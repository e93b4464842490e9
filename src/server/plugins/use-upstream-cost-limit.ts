/**
 * Refuses, before it runs, an operation (a subscription: each of its events)
 * whose worst-case upstream calls exceed `maxCost`: a QUERY_TOO_COSTLY error with the estimate and the
 * maximum, and no upstream call. The estimate of every operation, refused or
 * not, is kept for the cost report (`extensions.cost.estimated`).
 *
 * It runs at execution rather than as a validation rule because list sizes
 * come from variables (`first: $first`), which validation does not see.
 */
import type { DocumentNode, GraphQLError, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import type { GatewayContext } from '../../schema/context.js';
import { queryTooCostly } from '../../schema/errors.js';
import { estimateUpstreamCost } from '../../schema/upstream-cost.js';

export const DEFAULT_MAX_UPSTREAM_COST = 100;
/** Documents whose estimates are kept, and estimates kept per document (one per operation name and variables). */
const DOCUMENTS_KEPT = 1_000;
const ESTIMATES_PER_DOCUMENT = 64;

/**
 * Variables written out longer than this are estimated afresh each time instead of kept: any
 * client may send megabytes of them (undeclared ones included), and kept, they would be memory
 * the client chooses, up to DOCUMENTS_KEPT × ESTIMATES_PER_DOCUMENT times over.
 */
const MAX_KEPT_VARIABLES_CHARS = 512;

const estimates = new WeakMap<object, number>();

/** The estimate's key among a document's, or undefined when it is not worth keeping. */
function estimateKey(
  operationName: string | null | undefined,
  variables: unknown,
): string | undefined {
  let written: string;
  try {
    written = JSON.stringify(variables ?? null);
  } catch {
    // Nested past the stack (a 9 KB body can be): graphql-js refuses such a value on its own.
    return undefined;
  }
  return written.length > MAX_KEPT_VARIABLES_CHARS
    ? undefined
    : `${operationName ?? ''}\n${written}`;
}

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
    const key = estimateKey(args.operationName, args.variableValues);
    let upstreamCalls = key === undefined ? undefined : estimates.get(key);
    if (upstreamCalls === undefined) {
      upstreamCalls = estimateUpstreamCost(
        args.schema,
        args.document,
        args.operationName,
        args.variableValues,
      ).upstreamCalls;
      if (key !== undefined) estimates.set(key, upstreamCalls);
    }
    return upstreamCalls;
  };
  const limit = ({
    args,
    setResultAndStopExecution,
  }: {
    args: Parameters<typeof estimateOf>[0] & { contextValue: GatewayContext };
    setResultAndStopExecution: (result: { errors: GraphQLError[] }) => void;
  }): void => {
    const upstreamCalls = estimateOf(args);
    estimates.set(args.contextValue, upstreamCalls);
    args.contextValue.stats.estimatedCalls = upstreamCalls;
    if (upstreamCalls > maxCost)
      setResultAndStopExecution({ errors: [queryTooCostly(upstreamCalls, maxCost)] });
  };
  // A subscription's selection is resolved again for every event, for every subscriber: each
  // event may cost what a query of the same selection would, so the same limit applies.
  return { onExecute: limit, onSubscribe: limit };
}
