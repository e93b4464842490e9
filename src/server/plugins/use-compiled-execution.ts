/**
 * Queries run compiled (graphql-jit): a document's plan of fields, argument
 * reads and completions is made once and reused for every request of that
 * document, whatever its variables; graphql-js (Yoga's executor) still runs
 * everything the compiled form cannot answer as graphql-js would:
 *
 * - subscriptions and documents with `@defer`/`@stream` (incremental
 *   delivery is the executor's own);
 * - a document seen once: compiling costs more than running it a single
 *   time, so a document is compiled at its second execution;
 * - variables graphql-js cannot coerce: its own request errors (with their
 *   `locations`), which the error codes plugin then names BAD_USER_INPUT;
 *   and variables the compiled form coerces differently, caught the same way;
 * - a document graphql-jit fails to compile.
 *
 * Field errors leave as graphql-js makes them: located at their field's
 * nodes (so `locations` survive masking, which rebuilds errors from their
 * nodes), at their path, with the resolver's error as `originalError`, so
 * Yoga's mask and `maskError` treat them as they treat graphql-js's.
 *
 * The plugin must come before the tracing plugin: that one wraps whatever
 * executor it is handed in the request's trace context.
 */
import {
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type GraphQLSchema,
  getLocation,
  getOperationAST,
  getVariableValues,
  Kind,
  locatedError,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

/** What the cache holds for one document and operation name. */
type Plan =
  | { readonly kind: 'seen' }
  | { readonly kind: 'interpreted' }
  | {
      readonly kind: 'compiled';
      readonly query: CompiledQuery;
      readonly schema: GraphQLSchema;
      /** Field nodes by their `line:column`, made on the first error. */
      nodes?: Map<string, FieldNode>;
    };

export interface CompiledExecutionOptions {
  /** Documents (with their operation names) whose plans are kept; the least recent go first. */
  readonly maxDocuments?: number;
}

const SEEN: Plan = { kind: 'seen' };
const INTERPRETED: Plan = { kind: 'interpreted' };

export function useCompiledExecution({
  maxDocuments = DEFAULT_MAX_DOCUMENTS,
}: CompiledExecutionOptions = {}): Plugin {
  // Keyed by the parsed document: Yoga's parse cache hands out one object per document text.
  const plans = new LRUCache<DocumentNode, Map<string, Plan>>({ max: maxDocuments });
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string) => {
    let byName = plans.get(document);
    if (byName === undefined) {
      byName = new Map();
      plans.set(document, byName);
    }
    const plan = byName.get(operationName);
    if (plan === undefined) {
      byName.set(operationName, runsInterpreted(document, operationName) ? INTERPRETED : SEEN);
      return INTERPRETED;
    }
    if (plan.kind !== 'seen') return plan;
    const compiled = compileQuery(schema, document, operationName || undefined, {
      disablingCapturingStackErrors: true,
    });
    const next: Plan = isCompiledQuery(compiled)
      ? { kind: 'compiled', query: compiled, schema }
      : INTERPRETED;
    byName.set(operationName, next);
    return next;
  };

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const plan = planOf(args.schema, args.document, args.operationName ?? '');
      if (plan.kind !== 'compiled' || plan.schema !== args.schema) return;
      const operation = getOperationAST(args.document, args.operationName);
      const raw = args.variableValues ?? {};
      if (operation == null) return;
      const coerced = getVariableValues(args.schema, operation.variableDefinitions ?? [], raw);
      if (coerced.errors !== undefined) return;
      setExecuteFn((executeArgs) => {
        const result = plan.query.query(executeArgs.rootValue, executeArgs.contextValue, raw);
        const settled = (done: ExecutionResult) =>
          // Variables the compiled form refused though graphql-js took them: graphql-js answers.
          !('data' in done) ? executeFn(executeArgs) : located(done, plan, executeArgs.document);
        return isPromiseLike(result) ? Promise.resolve(result).then(settled) : settled(result);
      });
    },
  };
}

/** Documents graphql-js keeps: subscriptions, incremental delivery, missing operations. */
function runsInterpreted(document: DocumentNode, operationName: string): boolean {
  const operation = getOperationAST(document, operationName || undefined);
  if (operation == null || operation.operation === 'subscription') return true;
  let incremental = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'defer' || node.name.value === 'stream') incremental = true;
    },
  });
  return incremental;
}

/** The result with each error made as graphql-js makes a field error. */
function located(
  result: ExecutionResult,
  plan: Extract<Plan, { kind: 'compiled' }>,
  document: DocumentNode,
): ExecutionResult {
  if (result.errors === undefined || result.errors.length === 0) return result;
  plan.nodes ??= fieldNodesByLocation(document);
  const nodes = plan.nodes;
  return {
    ...result,
    errors: result.errors.map((error) => {
      const at = (error.locations ?? [])
        .map(({ line, column }) => nodes.get(`${line}:${column}`))
        .filter((node) => node !== undefined);
      const original: unknown = error.originalError;
      // graphql-jit's own errors (a null for a non-null field) have none: graphql-js's have an Error.
      return locatedError(
        original instanceof Error ? original : new Error(error.message),
        at.length > 0 ? at : undefined,
        error.path,
      );
    }),
  };
}

function fieldNodesByLocation(document: DocumentNode): Map<string, FieldNode> {
  const nodes = new Map<string, FieldNode>();
  const source = document.loc?.source;
  if (source === undefined) return nodes;
  visit(document, {
    [Kind.FIELD](node: FieldNode) {
      if (node.loc === undefined) return;
      const { line, column } = getLocation(source, node.loc.start);
      nodes.set(`${line}:${column}`, node);
    },
  });
  return nodes;
}

const isPromiseLike = <T>(value: T | PromiseLike<T>): value is PromiseLike<T> =>
  typeof (value as { then?: unknown } | null)?.then === 'function';

/** More than the documents a gateway's clients send; each plan is a few tens of KB at most. */
const DEFAULT_MAX_DOCUMENTS = 1_000;
