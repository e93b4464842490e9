/**
 * Subscriptions over GraphQL over SSE with the browser's own EventSource (no
 * extra client library): one GET per subscription, `next` events into urql.
 * EventSource reconnects by itself after a dropped connection.
 */
import { subscriptionExchange } from 'urql';

export function sseSubscriptionExchange(url: string) {
  return subscriptionExchange({
    forwardSubscription(request) {
      return {
        subscribe(sink) {
          const address = new URL(url, window.location.href);
          address.searchParams.set('query', request.query ?? '');
          if (request.variables !== undefined)
            address.searchParams.set('variables', JSON.stringify(request.variables));
          const source = new EventSource(address);
          source.addEventListener('next', (event) =>
            sink.next(JSON.parse((event as MessageEvent<string>).data)),
          );
          source.addEventListener('complete', () => {
            source.close();
            sink.complete();
          });
          return { unsubscribe: () => source.close() };
        },
      };
    },
  });
}
