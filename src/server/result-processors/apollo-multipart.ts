/**
 * Subscriptions over Apollo's multipart HTTP protocol, the one Apollo Client
 * (and, through Apollo's `createFetchMultipartSubscription`, urql and Relay)
 * speaks: the client asks with
 * `Accept: multipart/mixed;boundary="graphql";subscriptionSpec=1.0`, and
 * every event comes back as a part of one long `multipart/mixed` response:
 *
 *     --graphql
 *     content-type: application/json; charset=utf-8
 *
 *     {"payload":{"data":{...}}}
 *     --graphql
 *
 * with an empty `{}` part as a heartbeat every few seconds (so proxies keep
 * an idle stream open, and a client learns early that its server is gone),
 * CRLF line endings, the next boundary written right after each part (Apollo
 * hands a part over once it sees the boundary that ends it), and `--graphql--`
 * once the subscription ends. A refusal that is not a stream (too many
 * subscriptions, an invalid document) is one `{"payload": ...}` part, with
 * the refusal's own HTTP status.
 */
import type { ExecutionResult } from 'graphql';
import { isAsyncIterable, type processRegularResult } from 'graphql-yoga';
import { publicResult } from './public-result.js';

/** What Yoga calls to turn a result into a response (its `ResultProcessor`, not exported by name). */
type ResultProcessor = typeof processRegularResult;

/** Apollo's default, and every client's: a part every 5 s keeps the stream alive. */
export const HEARTBEAT_MS = 5_000;

const BOUNDARY = 'graphql';
const CRLF = '\r\n';
const DELIMITER = `${CRLF}--${BOUNDARY}`;
const PART_HEAD = `${CRLF}content-type: application/json; charset=utf-8${CRLF}${CRLF}`;

/** Whether an Accept header asks for Apollo's multipart subscriptions (its `subscriptionSpec` parameter). */
export function acceptsMultipartSubscriptions(accept: string | null): boolean {
  return (accept ?? '')
    .split(',')
    .some((type) => /^\s*multipart\/mixed\s*;/i.test(type) && /subscriptionSpec\s*=/i.test(type));
}

export function multipartSubscriptionProcessor(heartbeatMs = HEARTBEAT_MS): ResultProcessor {
  return (result, fetchAPI) => {
    const encoder = new fetchAPI.TextEncoder();
    // Each part is followed at once by the delimiter that ends it: the client hands it over then.
    const part = (body: unknown) =>
      encoder.encode(`${PART_HEAD}${JSON.stringify(body)}${DELIMITER}`);
    const end = encoder.encode(`--${CRLF}`);
    const single = !isAsyncIterable(result);
    const iterator: AsyncIterator<ExecutionResult> = single
      ? onceIterator(result as ExecutionResult)
      : (result[Symbol.asyncIterator]() as AsyncIterator<ExecutionResult>);
    let heartbeat: ReturnType<typeof setInterval> | undefined;
    const stopHeartbeat = () => clearInterval(heartbeat);
    const stream = new fetchAPI.ReadableStream<Uint8Array>({
      start(controller) {
        heartbeat = setInterval(() => {
          try {
            controller.enqueue(part({}));
          } catch {
            stopHeartbeat();
          }
        }, heartbeatMs);
        // Never holds the process open on its own: the server's close ends every stream.
        heartbeat.unref?.();
        // The opening delimiter, then a first heartbeat at once: some proxies hold the headers
        // until the body starts.
        controller.enqueue(encoder.encode(DELIMITER));
        controller.enqueue(part({}));
      },
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (!next.done && next.value != null)
            controller.enqueue(part({ payload: publicResult(next.value) }));
          if (next.done || single) {
            stopHeartbeat();
            controller.enqueue(end);
            controller.close();
          }
        } catch (error) {
          stopHeartbeat();
          // A transport-level error, in the protocol's own shape; then the stream ends.
          const message = error instanceof Error ? error.message : String(error);
          controller.enqueue(part({ payload: null, errors: [{ message }] }));
          controller.enqueue(end);
          controller.close();
        }
      },
      async cancel() {
        stopHeartbeat();
        await iterator.return?.();
      },
    });
    return new fetchAPI.Response(stream, {
      status: single ? statusOf(result as ExecutionResult) : 200,
      headers: {
        'content-type': `multipart/mixed;boundary="${BOUNDARY}";subscriptionSpec="1.0"`,
        'cache-control': 'no-cache',
        connection: 'keep-alive',
      },
    });
  };
}

async function* onceIterator(result: ExecutionResult): AsyncGenerator<ExecutionResult> {
  yield result;
}

/** A refusal's HTTP status, as its errors carry it (the gateway's errors set `extensions.http.status`). */
function statusOf(result: ExecutionResult): number {
  let status = 200;
  for (const error of result.errors ?? []) {
    const http = error.extensions?.http as { status?: unknown } | undefined;
    if (typeof http?.status === 'number' && http.status > status) status = http.status;
  }
  return status;
}
