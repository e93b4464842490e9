/**
 * Subscriptions (the milestone ticker) over GraphQL over SSE, with
 * graphql-sse's client: a POST per subscription that can carry the
 * `Authorization` header (the browser's EventSource cannot, so it could not
 * subscribe to a gateway in pass-through mode), and reconnection with
 * back-off after a dropped connection.
 */
import { createClient } from 'graphql-sse';
import { subscriptionExchange } from 'urql';

export function sseSubscriptionExchange(url: string, headers: Record<string, string>) {
  const client = createClient({ url, headers, retryAttempts: Number.POSITIVE_INFINITY });
  return subscriptionExchange({
    forwardSubscription: (request) => ({
      subscribe: (sink) => ({
        unsubscribe: client.subscribe({ ...request, query: request.query ?? '' }, sink),
      }),
    }),
  });
}
