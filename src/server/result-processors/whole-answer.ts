/**
 * `@defer` and `@stream` are hints a server may ignore (the incremental
 * delivery RFC says so): a client that accepts only JSON, such as a plain
 * `fetch` or a client without multipart support, gets the whole answer in
 * one body instead of a 406. The incremental payloads are read to the end
 * and merged into the first, as if the directives were not there; the cost
 * and freshness reports, written on the last payload, come along.
 */
import { type ExecutionResult, mergeIncrementalResult } from '@graphql-tools/utils';

export async function wholeAnswer(
  payloads: AsyncIterable<ExecutionResult>,
): Promise<ExecutionResult> {
  let whole: ExecutionResult | undefined;
  for await (const payload of payloads) {
    if (whole === undefined) whole = { ...payload };
    else mergeIncrementalResult({ incrementalResult: payload, executionResult: whole });
  }
  const { hasNext: _done, incremental: _merged, ...answer } = whole ?? { data: null };
  return answer;
}
