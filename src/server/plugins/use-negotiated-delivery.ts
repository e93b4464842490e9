/**
 * The form a result goes out in, for what the client accepts, beyond Yoga's
 * own processors (SSE, multipart for @defer/@stream, JSON):
 *
 * - a subscription asked for with Apollo's multipart protocol
 *   (`subscriptionSpec`) is streamed that way (result-processors/apollo-multipart.ts);
 * - a deferred or streamed query from a client that accepts only JSON gets
 *   the whole answer in one body (result-processors/whole-answer.ts);
 * - a stream that no form suits is ended here, before Yoga answers 406:
 *   nobody will read it, and ending it gives back what it holds (its
 *   SUBSCRIPTIONS_PER_CLIENT slot, its place in the live feed).
 *
 * Runs after Yoga's own result processors (Yoga registers them before any
 * plugin), so it only decides where they found nothing.
 */
import {
  isAsyncIterable,
  type Plugin,
  processRegularResult,
  type YogaInitialContext,
} from 'graphql-yoga';
import {
  acceptsMultipartSubscriptions,
  multipartSubscriptionProcessor,
} from '../result-processors/apollo-multipart.js';
import { wholeAnswer } from '../result-processors/whole-answer.js';

const JSON_TYPES = ['application/graphql-response+json', 'application/json'];

export function useNegotiatedDelivery(): Plugin<YogaInitialContext> {
  const subscriptions = new WeakSet<Request>();
  const multipart = multipartSubscriptionProcessor();
  return {
    onSubscribe({ args }) {
      subscriptions.add(args.contextValue.request);
    },
    async onResultProcess({ request, result, resultProcessor, setResult, setResultProcessor }) {
      if (resultProcessor !== undefined) return;
      const accept = request.headers.get('accept');
      if (subscriptions.has(request)) {
        if (acceptsMultipartSubscriptions(accept)) {
          setResultProcessor(multipart, 'multipart/mixed');
          return;
        }
      } else if (isAsyncIterable(result)) {
        const json = acceptedJsonType(accept);
        if (json !== undefined) {
          setResult(await wholeAnswer(result));
          setResultProcessor(processRegularResult, json);
          return;
        }
      }
      // Yoga answers 406: the stream nobody will read ends now.
      if (isAsyncIterable(result)) await result[Symbol.asyncIterator]().return?.();
    },
  };
}

/** The JSON media type the client names first, if it names one. */
function acceptedJsonType(accept: string | null): string | undefined {
  for (const range of (accept ?? '').split(',')) {
    const type = range.split(';')[0]?.trim().toLowerCase();
    if (type !== undefined && JSON_TYPES.includes(type)) return type;
  }
  return undefined;
}
