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
  type OperationDefinitionNode,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { andThen, type MaybePromise } from '../../schema/maybe-promise.js';

/** What the cache holds for one document and operation name. */
type Plan = { readonly kind: 'seen' } | { readonly kind: 'interpreted' } | CompiledPlan;

interface CompiledPlan {
  readonly kind: 'compiled';
  readonly query: CompiledQuery;
  readonly schema: GraphQLSchema;
  /** Field nodes by their `line:column`, made on the first error. */
  nodes?: Map<string, FieldNode>;
}

/** An operation Yoga ran compiled, all its checks passed: what the miss lane runs again. */
export interface CompiledOperation {
  readonly plan: CompiledPlan;
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
}

/** What a request's context tells this plugin about the request: where to leave the compiled operation. */
interface CompiledSlot {
  readonly responseCacheSlot?: { compiled?: CompiledOperation };
}

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
      if (operation == null || !coercible(args.schema, operation, raw)) return;
      const compiled: CompiledOperation = { plan, document: args.document, operation };
      const slot = (args.contextValue as CompiledSlot).responseCacheSlot;
      if (slot !== undefined) slot.compiled = compiled;
      setExecuteFn((executeArgs) => {
        const result = runCompiled(compiled, executeArgs.contextValue, raw);
        // Variables the compiled form refused though graphql-js took them: graphql-js answers.
        return result === undefined
          ? executeFn(executeArgs)
          : andThen(result, (done) => done ?? executeFn(executeArgs));
      });
    },
  };
}

/** Whether graphql-js takes the variables: when it does not, its own request errors answer. */
export function coercible(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  raw: Record<string, unknown>,
): boolean {
  return getVariableValues(schema, operation.variableDefinitions ?? [], raw).errors === undefined;
}

/**
 * Runs the compiled operation, its errors made as graphql-js makes them; undefined (at once or
 * once it settles) when the compiled form refused variables graphql-js took.
 */
export function runCompiled(
  compiled: CompiledOperation,
  context: unknown,
  raw: Record<string, unknown>,
): MaybePromise<ExecutionResult | undefined> {
  const result = compiled.plan.query.query(undefined, context, raw);
  const settled = (done: ExecutionResult) =>
    !('data' in done) ? undefined : located(done, compiled.plan, compiled.document);
  return isPromiseLike(result) ? Promise.resolve(result).then(settled) : settled(result);
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
  plan: CompiledPlan,
  document: DocumentNode,
): ExecutionResult {
  if (result.errors === undefined || result.errors.length === 0) return result;
  plan.nodes ??= fieldNodesByLocation(document);
  const nodes = plan.nodes;
  return Object.assign({}, result, {
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
  });
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
