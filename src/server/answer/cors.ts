/**
 * Cross-origin answers: a browser app on another origin (examples/web) reads
 * the gateway's answers. Yoga answers misses and preflights with its CORS
 * plugin under `CORS_OPTIONS`; a response-cache hit, answered before Yoga,
 * gets its headers from the very function that plugin uses
 * (@whatwg-node/server's getCORSHeadersByRequestAndOptions), under the same
 * options, so a hit and a miss can never disagree on them.
 */
import type { IncomingMessage } from 'node:http';
import { type CORSOptions, getCORSHeadersByRequestAndOptions } from '@whatwg-node/server';

/** Yoga's default: any origin, its credentials allowed, the request's method and headers echoed. */
export const CORS_OPTIONS: CORSOptions = {};

/** The CORS headers of an answer to `req`; empty when it names no Origin. */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  const headers = new Headers();
  for (const name of [
    'origin',
    'access-control-request-method',
    'access-control-request-headers',
  ]) {
    const value = req.headers[name];
    if (typeof value === 'string') headers.set(name, value);
  }
  // The function reads nothing of a request but its headers: no Request is built for a hit.
  const found = getCORSHeadersByRequestAndOptions({ headers } as Request, CORS_OPTIONS) ?? {};
  // Lower case, as node:http's own headers are: a hit merges its Vary with the stored answer's.
  return Object.fromEntries(
    Object.entries(found).map(([name, value]) => [name.toLowerCase(), value]),
  );
}
