/**
 * At most `perClient` subscriptions open at once per client on this replica
 * (client-identity.ts says who a client is). Each holds a connection, a file
 * descriptor and its share of the live feed for hours: without a bound, one
 * client could hold thousands. Past it, the new one is refused at once with
 * TOO_MANY_SUBSCRIPTIONS (HTTP 429); the open ones are untouched.
 */
import type { IncomingMessage } from 'node:http';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { tooManySubscriptions } from '../../schema/errors.js';
import { clientOf } from '../client-identity.js';

export const DEFAULT_SUBSCRIPTIONS_PER_CLIENT = 10;

export interface SubscriptionLimitOptions {
  readonly perClient?: number;
  readonly trustProxy?: boolean;
}

export function useSubscriptionLimit({
  perClient = DEFAULT_SUBSCRIPTIONS_PER_CLIENT,
  trustProxy = false,
}: SubscriptionLimitOptions = {}): Plugin<{ request: Request; req?: IncomingMessage }> {
  if (!Number.isSafeInteger(perClient) || perClient < 1)
    throw new Error(`perClient must be a positive integer: ${perClient}`);
  const open = new Map<string, number>();
  const release = (clientId: string) => {
    const left = (open.get(clientId) ?? 1) - 1;
    if (left > 0) open.set(clientId, left);
    else open.delete(clientId);
  };
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const context = args.contextValue;
      const clientId = clientOf(context.request, context, trustProxy);
      const count = open.get(clientId) ?? 0;
      if (count >= perClient) {
        setResultAndStopExecution({ errors: [tooManySubscriptions(perClient)] });
        return;
      }
      open.set(clientId, count + 1);
      let released = false;
      const end = () => {
        if (released) return;
        released = true;
        release(clientId);
      };
      return {
        // Once per subscription, however it ends: completed, failed, the client went away, or
        // refused by a later check (a single result, not a stream: it is over at once).
        onSubscribeResult: ({ result }) => {
          if (!isAsyncIterable(result)) {
            end();
            return;
          }
          return { onEnd: end };
        },
      };
    },
  };
}
