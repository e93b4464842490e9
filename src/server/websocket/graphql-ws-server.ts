/**
 * GraphQL over WebSocket, graphql-ws's `graphql-transport-ws` protocol (the
 * one most frontends subscribe with), on the GraphQL endpoint's own path and
 * port. graphql-ws speaks the protocol; every operation is relayed through
 * Yoga as the HTTP request it stands for (relayed-operation.ts), so a socket
 * meets the same rules as HTTP. The connection itself is refused with a
 * close code that says why:
 *
 * - 4401: pass-through mode and no usable key, neither in `connectionParams`
 *   (`Authorization` or `authorization`) nor on the upgrade request;
 * - 4403: a key the upstream rejected, when connecting or in any operation
 *   (every later operation on the socket would carry it too);
 * - 4429: the client is over its rate limit (opening a socket is a request);
 * - 1001: the gateway is closing: a client reconnects, to another replica.
 *
 * A browser cannot set headers on a WebSocket, so its key travels in
 * `connectionParams`; no ambient credential (cookie) is ever read, so a
 * page on another origin gains nothing by opening a socket here.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type ExecutionResult, parse } from 'graphql';
import type { Context } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import type { Logger } from 'pino';
import { type WebSocket, WebSocketServer } from 'ws';
import { type KeyRegistry, keyIdOf } from '../../coordination/key-registry.js';
import { type AuthMode, bearerKey } from '../caller.js';
import { clientAddress, clientIdOf } from '../client-identity.js';
import { type ClientRateLimiter, rateLimitRefusal } from '../plugins/use-client-rate-limit.js';
import {
  type OperationPayload,
  type Relay,
  type RelayedResult,
  relayedOperation,
} from './relayed-operation.js';

export const CLOSE_UNAUTHORIZED = 4401;
export const CLOSE_FORBIDDEN = 4403;
export const CLOSE_TOO_MANY_REQUESTS = 4429;

export interface GraphQLWsOptions {
  readonly relay: Relay;
  readonly auth: AuthMode;
  readonly keys: KeyRegistry;
  /** The per-client rate limit (server-key mode); absent: none. */
  readonly rateLimiter: ClientRateLimiter | undefined;
  readonly trustProxy: boolean;
  /** The largest message a client may send: the HTTP body limit. */
  readonly maxMessageBytes: number;
  readonly logger: Logger;
}

export interface GraphQLWs {
  /** node:http's `upgrade` listener, for requests to the GraphQL endpoint. */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket with 1001 (going away). */
  close(): Promise<void>;
}

/** graphql-ws's context, with what this connection was opened with. */
type Connection = Context<
  Record<string, unknown> | undefined,
  { socket: WebSocket; request: IncomingMessage }
>;

/** graphql-ws executes a document; the relayed operation stands behind this one. */
const RELAYED = parse('query Relayed { __typename }');

export function graphqlOverWebSocket(options: GraphQLWsOptions): GraphQLWs {
  const { relay, auth, logger } = options;
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes,
  });
  const authorizations = new WeakMap<Connection, string | undefined>();
  let closing: Promise<void> | undefined;

  const server = useServer(
    {
      isProd: true,
      onConnect: async (ctx) => {
        const authorization = authorizationOf(ctx);
        const refusal = await connectionRefusal(options, ctx.extra.request, authorization);
        if (refusal !== undefined) {
          ctx.extra.socket.close(refusal.code, refusal.reason);
          return false;
        }
        authorizations.set(ctx, authorization);
        return true;
      },
      onSubscribe: (ctx, _id, payload) => ({
        schema: undefined as never,
        document: RELAYED,
        contextValue: { ctx, payload },
      }),
      execute: ({ contextValue }) => {
        const { ctx, payload } = contextValue as { ctx: Connection; payload: OperationPayload };
        // JSON results, not graphql-js's: onNext below sends them as they are.
        const results = relayedOperation(
          relay,
          payload,
          ctx.extra.request,
          authorizations.get(ctx),
        );
        return (auth.kind === 'pass-through'
          ? closedWhenRejected(results, ctx.extra.socket)
          : results) as unknown as AsyncGenerator<ExecutionResult>;
      },
      // Results arrive as JSON in their public form: sent as they are.
      onNext: (_ctx, _id, _payload, _args, result) => result,
    },
    sockets,
  );

  return {
    upgrade(request, socket, head) {
      sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit('connection', ws, request));
    },
    close() {
      closing ??= Promise.resolve(server.dispose()).catch((error: unknown) =>
        logger.warn({ err: error }, 'closing the WebSocket server failed'),
      );
      return closing;
    },
  };
}

/** The key the connection brings: `connectionParams` first (browsers can set no header), then the upgrade's header. */
function authorizationOf(ctx: Connection): string | undefined {
  const params = ctx.connectionParams ?? {};
  const fromParams = params.Authorization ?? params.authorization;
  if (typeof fromParams === 'string') return fromParams;
  return ctx.extra.request.headers.authorization;
}

async function connectionRefusal(
  { auth, keys, rateLimiter, trustProxy }: GraphQLWsOptions,
  request: IncomingMessage,
  authorization: string | undefined,
): Promise<{ code: number; reason: string } | undefined> {
  if (rateLimiter !== undefined) {
    const client = clientIdOf(
      clientAddress(
        request.headers['x-forwarded-for'] as string | undefined,
        request.socket.remoteAddress,
        trustProxy,
      ),
    );
    const refused = await rateLimitRefusal(rateLimiter, client);
    // A close frame's reason holds at most 123 bytes.
    if (refused !== null)
      return { code: CLOSE_TOO_MANY_REQUESTS, reason: refused.message.slice(0, 120) };
  }
  if (auth.kind !== 'pass-through') return undefined;
  const key = bearerKey(authorization);
  if (key === undefined)
    return {
      code: CLOSE_UNAUTHORIZED,
      reason: 'Unauthorized: send `Authorization: Bearer <API_KEY>` in connectionParams',
    };
  if ((await keys.status(keyIdOf(key))) === 'rejected')
    return { code: CLOSE_FORBIDDEN, reason: 'Forbidden: invalid or revoked API key' };
  return undefined;
}

/**
 * `results`, closing the socket with 4403 after a result that says the upstream rejected the
 * key: every later operation on the socket would carry the same key.
 */
function closedWhenRejected(
  results: AsyncIterableIterator<RelayedResult>,
  socket: WebSocket,
): AsyncIterableIterator<RelayedResult> {
  const iterator: AsyncIterableIterator<RelayedResult> = {
    next: async () => {
      const step = await results.next();
      if (!step.done && step.value.errors?.some((e) => e.extensions?.code === 'UNAUTHENTICATED'))
        setImmediate(() => socket.close(CLOSE_FORBIDDEN, 'Forbidden: invalid or revoked API key'));
      return step;
    },
    return: () => results.return?.() ?? Promise.resolve({ done: true, value: undefined }),
    [Symbol.asyncIterator]: () => iterator,
  };
  return iterator;
}
