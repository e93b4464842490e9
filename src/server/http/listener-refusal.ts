/**
 * What the node:http listener answers itself, before Yoga is involved (a
 * path it does not serve, a rate-limited GraphiQL page, a body that is not
 * UTF-8): one of the gateway's refusals (http-errors.ts), in the same
 * JSON shape, status and headers Yoga would give it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import type { ErrorCode } from '../../error-codes.js';
import { errorBody } from '../../http-errors.js';

export function refuse(res: ServerResponse, error: GraphQLError): void {
  const http = error.extensions.http as
    | { status: number; headers?: Record<string, string> }
    | undefined;
  res.writeHead(http?.status ?? 400, {
    'content-type': 'application/json; charset=utf-8',
    ...http?.headers,
  });
  // Only the gateway's own refusals (http-errors.ts) come here, each made with an ErrorCode.
  res.end(errorBody(error.message, error.extensions.code as ErrorCode));
}

/** A browser asking for a page (GraphiQL), not a GraphQL client asking for JSON. */
export function acceptsPage(req: IncomingMessage): boolean {
  return String(req.headers.accept ?? '').includes('text/html');
}
