/**
 * Who the upstream call is made for. In server-key mode every client uses the
 * gateway's key; in pass-through mode each client brings its own, which must
 * be a well-formed bearer token.
 */

import { keyIdOf } from '../coordination/key-registry.js';
import { unauthenticated } from '../http-errors.js';
import type { Caller } from '../reads/caller.js';

/** Printable ASCII without spaces, as RFC 6750 allows for bearer tokens, and a sane length. */
const BEARER = /^Bearer ([\x21-\x7E]{1,512})$/i;

export type AuthMode =
  | { readonly kind: 'server'; readonly apiKey: string }
  | { readonly kind: 'pass-through' };

/** Where a request's headers are read: a Fetch API Request, or the miss lane's view of node:http's. */
export interface RequestHeaders {
  readonly headers: { get(name: string): string | null };
}

/** The caller of a request; throws UNAUTHENTICATED (HTTP 401) when pass-through mode finds no usable key. */
export function callerFor(
  request: RequestHeaders,
  auth: AuthMode,
  server: Caller | undefined,
): Caller {
  if (auth.kind === 'server' && server !== undefined) return server;
  const header = request.headers.get('authorization');
  if (header === null || header.trim() === '') {
    throw unauthenticated(
      'An API key is required: send it as the Authorization header, `Bearer <API_KEY>`',
    );
  }
  const apiKey = bearerKey(header);
  if (apiKey === undefined) {
    throw unauthenticated('The Authorization header must be `Bearer <API_KEY>`');
  }
  return { apiKey, keyId: keyIdOf(apiKey), mode: 'client' };
}

/** The key of an `Authorization: Bearer <key>` header, when it is one. */
export function bearerKey(header: string | null | undefined): string | undefined {
  return BEARER.exec(header?.trim() ?? '')?.[1];
}
