/**
 * The gateway's paths, exactly. Yoga matches loosely: it runs operations
 * for any URL that merely ends with its endpoint (`/a/graphql`,
 * `/x?y=/graphql`), where the HTTP caching headers, the response cache and
 * its 304s, which look for the endpoint's path, never apply (`apiUsage`
 * went out without `no-store`); its GraphiQL page, health check and
 * readiness check answer any URL ending in their path (`/x/graphql`,
 * `/anything/ready`), and none of the three can be told otherwise (5.16).
 * So the node:http listener decides, before Yoga sees the request:
 *
 * - `/graphql/` is `/graphql`: clients and proxies add the slash, and the
 *   same request should get the same answer. The URL is rewritten before
 *   anything reads it, so every part of the gateway sees one endpoint.
 * - The endpoint and the other served paths (`/health`, `/ready`,
 *   `/metrics`) go on, as sent; a browser's page request for `/` is sent
 *   to the endpoint (GraphiQL) unless GraphiQL is off; any other path is
 *   not found: 404 with NOT_FOUND in the gateway's error shape.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { pathNotFound } from '../../http-errors.js';
import { urlPath } from '../../url-path.js';
import { acceptsPage, refuse } from './listener-refusal.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Only `endpoint` (or `endpoint/`) and `otherPaths` reach `listener`, the path compared as sent;
 * the rest is answered here, with the request's log line (use-request-log.ts logs the others).
 */
export function withServedPathsOnly(
  endpoint: string,
  otherPaths: readonly string[],
  listener: Listener,
  logger: Logger,
  { rootToEndpoint }: { readonly rootToEndpoint: boolean },
): Listener {
  const served = new Set([endpoint, ...otherPaths]);
  const slashed = `${endpoint}/`;
  const notFound = pathNotFound(endpoint, otherPaths);
  return (req, res) => {
    const url = req.url ?? '/';
    const path = urlPath(url);
    if (path === slashed) req.url = endpoint + url.slice(slashed.length);
    else if (rootToEndpoint && path === '/' && req.method === 'GET' && acceptsPage(req)) {
      // Someone typed the host into a browser: GraphiQL is at the endpoint.
      res.writeHead(302, { location: endpoint }).end();
      logger.info({ method: req.method, path, status: 302 }, 'request');
      return;
    } else if (!served.has(path)) {
      refuse(res, notFound);
      logger.info({ method: req.method, path, status: 404 }, 'request');
      return;
    }
    listener(req, res);
  };
}
