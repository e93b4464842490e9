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

/** The CORS headers of an answer to `req`; empty when it names no Origin (most requests: no work then). */
export function corsHeaders(req: IncomingMessage): Record<string, string> {
  if (req.headers.origin === undefined) return {};
  // The function reads nothing of a request but `headers.get`: node:http's own headers serve,
  // without building a Request (or a Headers) for a hit.
  const request = {
    headers: {
      get: (name: string) => {
        const value = req.headers[name];
        return typeof value === 'string' ? value : null;
      },
    },
  } as Request;
  const found = getCORSHeadersByRequestAndOptions(request, CORS_OPTIONS) ?? {};
  // Lower case, as node:http's own headers are: a hit merges its Vary with the stored answer's.
  return Object.fromEntries(
    Object.entries(found).map(([name, value]) => [name.toLowerCase(), value]),
  );
}
