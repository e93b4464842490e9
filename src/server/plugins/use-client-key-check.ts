/**
 * In pass-through mode, a key the upstream rejected gets no data at all, not
 * even the parts of the answer that came from cache or from other fields:
 * the whole response becomes a single UNAUTHENTICATED error with HTTP 401.
 */
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../schema/context.js';
import { unauthenticated } from '../../schema/errors.js';

export function useClientKeyCheck(): Plugin<GatewayContext> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          if (Symbol.asyncIterator in result || !args.contextValue.stats.unauthenticated) return;
          setResult({ errors: [unauthenticated('Invalid or revoked API key')] });
        },
      };
    },
  };
}
