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

/**
 * The next request's number, for every load of this process: a body made from it is never sent
 * twice, whichever round sends it. Numbered per round, a varying load repeated the bodies of the
 * round before, and a response cache stored them at their second miss and answered the third.
 */
let next = 0;

export function postLoad({ url, headers, connections, seconds, bodies }: PostLoad) {
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
