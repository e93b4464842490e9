/**
 * Yoga's answer to a node:http request, written to its response: what Yoga's own listener
 * (`yoga.handle`, @whatwg-node/server's `requestListener`) does, given the server context
 * whole. Why not that listener: handed a context of ours, it merges it into one of its own by
 * copying every property's descriptor, on every request: a share of a trivial operation's miss
 * that showed in its profile. Everything else is as that listener does it: a request whose
 * handler throws gets the answer the adapter makes of the error, and the returned promise never
 * rejects (its callers do not wait on it to answer anything else), a failed write being logged.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { handleErrorFromRequestHandler, sendNodeResponse } from '@whatwg-node/server';
import type { YogaServerInstance } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { GatewayContext } from '../schema/context.js';
import type { ServerContext } from './server-context.js';

/** Yoga writes the status and every header in one `writeHead`, as its own listener does. */
const SINGLE_WRITE_HEAD = true;

export function yogaListener(
  yoga: YogaServerInstance<ServerContext, GatewayContext>,
  logger: Logger,
) {
  return async (req: IncomingMessage, res: ServerResponse, context: ServerContext) => {
    let response: Response;
    try {
      response = await yoga.handleNodeRequestAndResponse(req, res, { req, res, ...context });
    } catch (error) {
      response = handleErrorFromRequestHandler(error, yoga.fetchAPI.Response);
    }
    try {
      await sendNodeResponse(response, res, req, SINGLE_WRITE_HEAD);
    } catch (error) {
      logger.error({ err: error }, 'an answer could not be written');
      res.destroy();
    }
  };
}
