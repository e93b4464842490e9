/**
 * One operation a WebSocket carries, relayed as the HTTP request it stands
 * for: a POST of its payload to the GraphQL endpoint, handed to Yoga in
 * process with the socket's own request as server context (its address is
 * the client's), and the key the connection brought. So it meets every rule
 * an HTTP request meets, in the same order and by the same code: the
 * client's rate limit, the body's size, persisted operations, shape and
 * cost limits, the key check, the subscription limit, the response's cost
 * report. Its answer is read back as server-sent events (a query's one
 * result, a subscription's events, a deferred query's payloads) or, for a
 * request refused before it ran, as its JSON body.
 */
import type { IncomingMessage } from 'node:http';
import { createParser } from 'eventsource-parser';
import type { ServerContext } from '../server-context.js';

/** What the socket's subscribe message carries (graphql-ws has checked its shape). */
export interface OperationPayload {
  readonly query: string;
  readonly operationName?: string | null;
  readonly variables?: Record<string, unknown> | null;
  readonly extensions?: Record<string, unknown> | null;
}

/** A result as it travels: already JSON, already in its public form. */
export type RelayedResult = Record<string, unknown> & {
  errors?: { message: string; extensions?: Record<string, unknown> }[];
};

export interface Relay {
  /** Yoga's fetch, with the server context the listener would give it. */
  fetch(request: Request, context: ServerContext): Promise<Response> | Response;
  /**
   * A turn at Yoga, as an HTTP request takes one (request-turns.ts): until `handedOver` settles;
   * `left` when the operation ended while it waited. Absent: no turns.
   */
  turn?(gone: AbortSignal, handedOver: Promise<unknown>): Promise<'now' | 'waited' | 'left'>;
  readonly graphqlEndpoint: string;
}

/**
 * The operation's results. Returning the iterator ends the operation at once, even while it
 * waits for an event (an async generator's `return` would wait behind that event, for hours).
 */
export function relayedOperation(
  relay: Relay,
  payload: OperationPayload,
  upgrade: IncomingMessage,
  authorization: string | undefined,
): AsyncIterableIterator<RelayedResult> {
  const ended = new AbortController();
  const results = relayedResults(relay, payload, upgrade, authorization, ended.signal);
  const iterator: AsyncIterableIterator<RelayedResult> = {
    next: () => results.next(),
    return: () => {
      ended.abort();
      return results.return(undefined);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}

async function* relayedResults(
  relay: Relay,
  payload: OperationPayload,
  upgrade: IncomingMessage,
  authorization: string | undefined,
  ended: AbortSignal,
): AsyncGenerator<RelayedResult> {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: 'text/event-stream',
  });
  if (authorization !== undefined) headers.set('authorization', authorization);
  // Behind a proxy, the socket's address is the proxy's: the header names the client (client-identity.ts).
  const forwardedFor = upgrade.headers['x-forwarded-for'];
  if (typeof forwardedFor === 'string') headers.set('x-forwarded-for', forwardedFor);
  const request = new Request(`http://gateway${relay.graphqlEndpoint}`, {
    method: 'POST',
    headers,
    // graphql-ws requires a `query`; a persisted operation names its document in `documentId` or `extensions` instead.
    body: JSON.stringify(payload.query === '' ? withoutQuery(payload) : payload),
  });
  let handOver = () => {};
  const handedOver = new Promise<void>((resolve) => {
    handOver = resolve;
  });
  let response: Response;
  try {
    if ((await relay.turn?.(ended, handedOver)) === 'left') return;
    response = await relay.fetch(request, { req: upgrade });
  } finally {
    // The operation ran (a query's result is built, a subscription's stream has begun): the turn ends.
    handOver();
  }
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    yield await refusal(response);
    return;
  }
  const body = response.body;
  if (body === null) return;
  // Cancelling the stream itself (not a reader of it, whose cancel would wait behind the read
  // under way) reaches Yoga's side at once: the subscription behind it ends, its slot is freed.
  // Yoga's fetch API (@whatwg-node) lets a stream be cancelled while it is being read.
  const cancel = () => void body.cancel().catch(() => {});
  ended.addEventListener('abort', cancel, { once: true });
  if (ended.aborted) cancel();
  const decoder = new TextDecoder();
  const parsed: { event?: string | undefined; data: string }[] = [];
  const parser = createParser({ onEvent: (event) => parsed.push(event) });
  try {
    for await (const chunk of body) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      for (const event of parsed.splice(0)) {
        if (event.event === 'complete') return;
        if (event.event === 'next') yield JSON.parse(event.data) as RelayedResult;
      }
    }
  } catch (error) {
    // A stream cancelled on purpose ends quietly; any other failure is the operation's.
    if (!ended.aborted) throw error;
  } finally {
    ended.removeEventListener('abort', cancel);
  }
}

/** The payload without its empty `query`, copied member by member: its keys are the client's. */
function withoutQuery({
  query: _empty,
  ...rest
}: OperationPayload): Omit<OperationPayload, 'query'> {
  return rest;
}

/** A request refused before it ran (rate limit, size, a body Yoga could not take): its JSON, or its status. */
async function refusal(response: Response): Promise<RelayedResult> {
  const text = await response.text();
  try {
    const body = JSON.parse(text) as unknown;
    if (typeof body === 'object' && body !== null && !Array.isArray(body))
      return body as RelayedResult;
  } catch {
    // Not JSON: the status says what happened.
  }
  return {
    errors: [{ message: `Refused with HTTP ${response.status} ${response.statusText}`.trim() }],
  };
}
