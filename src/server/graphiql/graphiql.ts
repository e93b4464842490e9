/**
 * GraphiQL at the GraphQL endpoint, served by the node:http listener as a
 * static page (static-page.ts) in place of Yoga's GraphiQL plugin, which
 * renders the whole page afresh for every request.
 *
 * Which requests get it is Yoga's rule (graphql-yoga 5.16,
 * plugins/use-graphiql.js `shouldRenderGraphiQL`): a GET whose Accept names
 * `text/html`, a browser's, whatever its query string (GraphiQL reads the
 * query from the URL itself); every other request (a GraphQL GET asking for
 * JSON, an SSE subscription) goes on to be executed. Only the endpoint
 * itself, with or without its trailing slash, as graphql-path.ts serves it.
 *
 * The page is rendered with the same options Yoga was given: the title, the
 * example tabs (examples.ts) and, in pass-through mode, a placeholder
 * Authorization header. The page is Yoga's but for one thing: the variables
 * GraphiQL opens with are chosen in the browser (graphiql-page.ts says why).
 * A page load still counts against the client's rate limit in server-key
 * mode: the page is the largest thing the gateway sends.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { urlPath } from '../../url-path.js';
import { corsHeaders } from '../answer-parts/cors.js';
import { logRequest } from '../answer-parts/request-log.js';
import { acceptsPage, refuse } from '../http/listener-refusal.js';
import {
  type ClientRateLimiter,
  requestRateLimitRefusal,
} from '../plugins/use-client-rate-limit.js';
import { exampleGraphiQL } from './examples.js';
import { renderGraphiQLPage } from './graphiql-page.js';
import { staticPage } from './static-page.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export const GRAPHIQL_TITLE = 'Music Streaming Statistics GraphQL';

export interface GraphiQLOptions {
  readonly endpoint: string;
  /** Variables of the example tabs, by operation name. */
  readonly exampleVariables?: Record<string, Record<string, unknown>>;
  /** Pass-through mode: the page offers an Authorization header to fill in. */
  readonly passThrough: boolean;
  readonly rateLimiter: ClientRateLimiter | undefined;
  readonly logger: Logger;
}

/** What GraphiQL opens with, as Yoga's `graphiql` option took it. */
export function graphiqlPageOptions(
  exampleVariables: Record<string, Record<string, unknown>> | undefined,
  passThrough: boolean,
) {
  return {
    title: GRAPHIQL_TITLE,
    ...exampleGraphiQL(exampleVariables),
    ...(passThrough
      ? { defaultHeaders: JSON.stringify({ Authorization: 'Bearer <your API key>' }) }
      : {}),
  };
}

/** A browser's request for the page: Yoga's rule, on the endpoint's exact path. */
function asksForPage(req: IncomingMessage, endpoint: string): boolean {
  if (req.method !== 'GET' || !acceptsPage(req)) return false;
  const path = urlPath(req.url ?? '/');
  return path === endpoint || path === `${endpoint}/`;
}

/** `listener` with GraphiQL's page answered in front of it. */
export function withGraphiQL(listener: Listener, options: GraphiQLOptions): Listener {
  const { endpoint, rateLimiter, logger } = options;
  // The bundle is inline: the page works offline and behind firewalls, no CDN involved.
  const page = staticPage(() =>
    renderGraphiQLPage(graphiqlPageOptions(options.exampleVariables, options.passThrough)),
  );

  const answer = async (req: IncomingMessage, res: ServerResponse, startedAt: number) => {
    const refusal =
      rateLimiter === undefined ? null : await requestRateLimitRefusal(rateLimiter, req);
    if (refusal !== null) refuse(res, refusal);
    const status = refusal === null ? await page.send(req, res, corsHeaders(req)) : res.statusCode;
    logRequest(logger, { method: req.method, path: endpoint, status, startedAt });
  };

  return (req, res) => {
    if (!asksForPage(req, endpoint)) {
      listener(req, res);
      return;
    }
    answer(req, res, performance.now()).catch((error: unknown) => {
      logger.error({ err: error }, 'GraphiQL page: request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
  };
}
