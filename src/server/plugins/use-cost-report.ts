/**
 * Adds `extensions.cost` to every response Yoga answers (answer-parts/cost-extension.ts
 * writes it, for response-cache hits too). Fields answered from held data that was not
 * current are listed in `extensions.stale`: each one's GraphQL path and the data's age.
 * `estimated` is the worst case the request's context was made with
 * (request-spending.ts).
 * Records left out of lists are listed in `extensions.warnings`. With
 * @defer/@stream the report is on the last payload, deferred reads included.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../schema/context.js';
import { costExtension } from '../answer-parts/cost-extension.js';
import { onFinalResult } from './on-final-result.js';

export function useCostReport(): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone: (done) =>
          onFinalResult(done, async ({ args, result, setResult }) => {
            const { report, spending, budget, caller, loader } = args.contextValue;
            const usage = await budget.usage(caller.keyId);
            const stale = loader.staleFields();
            setResult({
              ...result,
              extensions: {
                ...result.extensions,
                cost: costExtension(
                  {
                    estimated: spending.estimatedCalls,
                    upstreamCalls: report.upstreamCalls,
                    cacheHits: report.cacheHits,
                    deduplicated: report.deduplicated,
                  },
                  usage,
                ),
                ...(stale.length > 0 ? { stale } : {}),
                ...(report.warnings.length > 0 ? { warnings: report.warnings } : {}),
              },
            });
          }),
      };
    },
  };
}
