/**
 * The reports in `extensions` (cost, freshness) belong on the complete
 * answer: the single result, or, with @defer/@stream, the last incremental
 * payload (`hasNext: false`), when every deferred part has been read and
 * counted like the rest.
 */
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable } from 'graphql-yoga';

interface Final<Context> {
  readonly args: { readonly contextValue: Context };
  readonly result: ExecutionResult;
  setResult(result: ExecutionResult): void;
}

interface ExecuteDone<Context> {
  readonly args: { readonly contextValue: Context };
  readonly result: unknown;
  setResult(result: never): void;
}

export function onFinalResult<Context>(
  done: ExecuteDone<Context>,
  extend: (final: Final<Context>) => void | Promise<void>,
): void | Promise<void> | { onNext(next: ExecuteDone<Context>): void | Promise<void> } {
  if (!isAsyncIterable(done.result)) return extend(done as unknown as Final<Context>);
  return {
    onNext: (next) => {
      const result = next.result as ExecutionResult & { hasNext?: boolean };
      if (result.hasNext === false) return extend(next as unknown as Final<Context>);
    },
  };
}
