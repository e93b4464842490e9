/**
 * At most `perClient` subscriptions open at once per client on this replica
 * (client-identity.ts says who a client is). Each holds a connection, a file
 * descriptor and its share of the live feed for hours: without a bound, one
 * client could hold thousands. Past it, the new one is refused at once with
 * TOO_MANY_SUBSCRIPTIONS (HTTP 429); the open ones are untouched.
 */
import type { IncomingMessage } from 'node:http';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { tooManySubscriptions } from '../../http-errors.js';
import type { GatewayMetrics } from '../../observability/metrics.js';
import { DEFAULT_SUBSCRIPTIONS_PER_CLIENT } from '../../setting-defaults.js';
import { clientOf } from '../client-identity.js';

export interface SubscriptionLimitOptions {
  readonly perClient?: number;
  readonly trustProxy?: boolean;
  /** Where the count of open subscriptions is published (`gateway_subscriptions_open`). */
  readonly metrics?: Pick<GatewayMetrics, 'sampled'>;
}

export function useSubscriptionLimit({
  perClient = DEFAULT_SUBSCRIPTIONS_PER_CLIENT,
  trustProxy = false,
  metrics,
}: SubscriptionLimitOptions = {}): Plugin<{ request: Request; req?: IncomingMessage }> {
  if (!Number.isSafeInteger(perClient) || perClient < 1)
    throw new Error(`perClient must be a positive integer: ${perClient}`);
  const open = new Map<string, number>();
  let total = 0;
  metrics?.sampled(
    'gateway_subscriptions_open',
    'Subscriptions open on this replica, over every transport (SSE, multipart, WebSocket)',
    [],
    (set) => set(total),
  );
  const release = (clientId: string) => {
    total -= 1;
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
      total += 1;
      let released = false;
      const end = () => {
        if (released) return;
        released = true;
        release(clientId);
      };
      return {
        // Once per subscription, however it ends: completed, failed, returned (the client went
        // away, no answer form suited it, the gateway closed), or refused by a later check (a
        // single result, not a stream: it is over at once).
        onSubscribeResult: ({ result, setResult }) => {
          if (!isAsyncIterable(result)) end();
          else setResult(endingWith(result, end));
        },
      };
    },
  };
}

/** `stream`, calling `end` once when it completes, fails, or is returned or thrown into. */
function endingWith<T>(stream: AsyncIterable<T>, end: () => void): AsyncIterableIterator<T> {
  const source = stream[Symbol.asyncIterator]();
  const settle = <R>(step: Promise<R>, finished: (value: R) => boolean) =>
    step.then(
      (value) => {
        if (finished(value)) end();
        return value;
      },
      (error: unknown) => {
        end();
        throw error;
      },
    );
  const iterator: AsyncIterableIterator<T> = {
    next: () => settle(source.next(), (step) => step.done === true),
    return: (value?: unknown) => {
      end();
      return source.return?.(value) ?? Promise.resolve({ done: true, value: undefined });
    },
    throw: (error?: unknown) => {
      end();
      return source.throw?.(error) ?? Promise.reject(error);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
