/**
 * One load round of POSTs with autocannon, its bodies one string throughout or made per request
 * (queries.ts `loadBodies`): what bench:tailcall, bench:hits and the profile script all send.
 * With `get`, each body is sent as a GET of the same members as search parameters instead.
 */
import autocannon from 'autocannon';
import type { Bodies } from './queries.js';

export interface PostLoad {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly connections: number;
  readonly seconds: number;
  readonly bodies: Bodies;
  /** Each body as a GET's search parameters (`asSearch`), not a POST. */
  readonly get?: boolean;
}

/** A JSON body's members as search parameters, as a GET asks for the same operation. */
export function asSearch(body: string): string {
  const members = JSON.parse(body) as Record<string, unknown>;
  return new URLSearchParams(
    Object.entries(members).map(([name, value]) => [
      name,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  ).toString();
}

/**
 * The next request's number, for every load of this process: a body made from it is never sent
 * twice, whichever round sends it. Numbered per round, a varying load repeated the bodies of the
 * round before, and a response cache stored them at their second miss and answered the third.
 */
let next = 0;

export function postLoad({ url, headers, connections, seconds, bodies, get = false }: PostLoad) {
  if (get) {
    const path = new URL(url).pathname;
    const pathOf = (body: string) => `${path}?${asSearch(body)}`;
    const { 'content-type': _, ...getHeaders } = headers;
    return autocannon({
      url,
      method: 'GET',
      headers: getHeaders,
      connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            path: pathOf(typeof bodies === 'string' ? bodies : bodies(next++)),
          }),
        },
      ],
    });
  }
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
