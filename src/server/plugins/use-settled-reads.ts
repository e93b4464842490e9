/**
 * A field goes on as soon as its own upstream read is in (request-loader.ts),
 * so execution can finish while reads started ahead for fields that did not
 * need them are still out. The answer waits for those too, before any other
 * plugin looks at what the request cost: the cost report, the budget metrics
 * and the response cache's recorder then see every call made for it. Then
 * the request gives back what it held for new records and did not use.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../schema/context.js';
import { onFinalResult } from './on-final-result.js';

export function useSettledReads(): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone: (done) => onFinalResult(done, ({ args }) => settleReads(args.contextValue)),
      };
    },
  };
}

/** Waits for the request's reads still out, then gives back what it held and did not use (the miss lane's answers too). */
export function settleReads(
  context: Pick<GatewayContext, 'loader' | 'spending'>,
): void | Promise<void> {
  const { loader, spending } = context;
  // Both answer without a promise when nothing is out, as for a page of held records.
  const settled = loader.settled();
  if (settled === undefined) return spending.hold?.settle();
  return settled.then(() => spending.hold?.settle());
}
