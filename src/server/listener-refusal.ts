/**
 * What the node:http listener answers itself, before Yoga is involved (a
 * path it does not serve, a rate-limited GraphiQL page, a body that is not
 * UTF-8): one of the gateway's refusals (schema/errors.ts), in the same
 * JSON shape, status and headers Yoga would give it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLError } from 'graphql';
import { errorBody } from '../schema/errors.js';

export function refuse(res: ServerResponse, error: GraphQLError): void {
  const http = error.extensions.http as
    | { status: number; headers?: Record<string, string> }
    | undefined;
  res.writeHead(http?.status ?? 400, {
    'content-type': 'application/json; charset=utf-8',
    ...http?.headers,
  });
  res.end(errorBody(error.message, String(error.extensions.code)));
}

/** A browser asking for a page (GraphiQL), not a GraphQL client asking for JSON. */
export function acceptsPage(req: IncomingMessage): boolean {
  return String(req.headers.accept ?? '').includes('text/html');
}
