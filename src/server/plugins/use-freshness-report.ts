/**
 * Adds `extensions.freshness`: the data generation the answer
 * belongs to and when the gateway saw the upstream refresh it, how many reads
 * were answered from the previous generation while being refreshed, whether
 * the budget was too low to refresh them (they stay as they were), and, when
 * held answers that are not current were used (the plan spends the day
 * elsewhere, or the upstream fails), the oldest one's generation and the
 * time it was read.
 */
import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Generation } from '../../freshness/generation.js';
import type { GatewayContext } from '../../schema/context.js';
import { onFinalResult } from './on-final-result.js';

export function useFreshnessReport(): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone: (done) =>
          onFinalResult(done, ({ args, result, setResult }) => {
            const reported = withFreshnessReport(result, args.contextValue);
            if (reported !== result) setResult(reported);
          }),
      };
    },
  };
}

/** `result` with `extensions.freshness` (the miss lane's answers use it too); `result` itself when there is nothing to report. */
export function withFreshnessReport(
  result: ExecutionResult,
  context: Pick<GatewayContext, 'report' | 'generation'>,
): ExecutionResult {
  const { report, generation } = context;
  const current = generation.now();
  const held = report.oldestRead;
  if (current === undefined && held === undefined) return result;
  // Member by member, optional ones only when present (no spread of empty objects).
  const freshness: Record<string, unknown> = generationReport(current);
  if (report.previousGeneration > 0) freshness.previousGeneration = report.previousGeneration;
  if (held !== undefined)
    freshness.oldestRead = {
      generation: held.generation,
      readAt: new Date(held.storedAt).toISOString(),
    };
  if (report.revalidationDeferred) {
    freshness.budgetLow = true;
    freshness.note =
      'The daily budget is low: answers of the previous data generation are served without refreshing them';
  }
  return Object.assign({}, result, {
    extensions: Object.assign({}, result.extensions, { freshness }),
  });
}

/** The generation part of `extensions.freshness`, also written by the response cache's hits. */
export function generationReport(current: Generation | undefined): {
  generation: number | null;
  seenAt: string | null;
} {
  return { generation: current?.id ?? null, seenAt: current?.seenAt ?? null };
}
