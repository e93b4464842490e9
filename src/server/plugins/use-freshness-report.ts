/**
 * Adds `extensions.freshness` (issue 11): the data generation the answer
 * belongs to and when the gateway saw the upstream refresh it, how many reads
 * were answered from the previous generation while being refreshed, and
 * whether the budget was too low to refresh them (they stay as they were).
 */
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
            const { stats, generation } = args.contextValue;
            const current = generation.now();
            if (current === undefined && stats.previousGeneration === 0) return;
            setResult({
              ...result,
              extensions: {
                ...result.extensions,
                freshness: {
                  ...generationReport(current),
                  ...(stats.previousGeneration > 0
                    ? { previousGeneration: stats.previousGeneration }
                    : {}),
                  ...(stats.revalidationDeferred
                    ? {
                        budgetLow: true,
                        note: 'The daily budget is low: answers of the previous data generation are served without refreshing them',
                      }
                    : {}),
                },
              },
            });
          }),
      };
    },
  };
}

/** The generation part of `extensions.freshness`, also written by the response cache's hits. */
export function generationReport(current: Generation | undefined): {
  generation: number | null;
  seenAt: string | null;
} {
  return { generation: current?.id ?? null, seenAt: current?.seenAt ?? null };
}
