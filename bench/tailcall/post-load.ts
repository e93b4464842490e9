/**
 * One load round of POSTs with autocannon, its bodies one string throughout or made per request
 * (queries.ts `loadBodies`): what bench:tailcall, bench:hits and the profile script all send.
 */
import autocannon from 'autocannon';
import type { Bodies } from './queries.js';

export interface PostLoad {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly seconds: number;
  readonly bodies: Bodies;
}

export function postLoad({ url, headers, connections, seconds, bodies }: PostLoad) {
  let next = 0;
  return autocannon({
    url,
    method: 'POST',
    headers,
    connections,
    duration: seconds,
    ...(typeof bodies === 'string'
      ? { body: bodies }
      : { requests: [{ setupRequest: (request) => ({ ...request, body: bodies(next++) }) }] }),
  });
}
