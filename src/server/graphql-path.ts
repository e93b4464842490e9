/**
 * One GraphQL endpoint, at one path. Yoga runs operations for any URL that
 * merely ends with its endpoint (`/graphql/`, `/a/graphql`, `/x?y=/graphql`),
 * where the HTTP caching headers, the response cache and its 304s, which
 * look for the endpoint's path, never apply: `apiUsage` went out without
 * `no-store`.
 *
 * - `/graphql/` is `/graphql`: clients and proxies add the slash, and the
 *   same request should get the same answer. The URL is rewritten before
 *   anything reads it, so every part of the gateway sees one endpoint.
 * - Any other path Yoga would take for the endpoint gets its 404, as any
 *   unknown path does.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Plugin } from 'graphql-yoga';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/** `endpoint/` and `endpoint/?…` become `endpoint` and `endpoint?…`. */
export function withSlashlessEndpoint(endpoint: string, listener: Listener): Listener {
  const slashed = `${endpoint}/`;
  const queryAt = slashed.length;
  return (req, res) => {
    const url = req.url;
    if (
      url?.startsWith(slashed) &&
      (url.length === queryAt || url.charCodeAt(queryAt) === QUESTION_MARK)
    )
      req.url = endpoint + url.slice(queryAt);
    listener(req, res);
  };
}

const QUESTION_MARK = 0x3f;

/** After the plugins that answer their own paths (`/ready`, `/metrics`): the rest is the endpoint's, or not found. */
export function useEndpointOnly(endpoint: string): Plugin {
  return {
    onRequest({ url, endResponse, fetchAPI }) {
      if (url.pathname !== endpoint) endResponse(new fetchAPI.Response(null, { status: 404 }));
    },
  };
}
