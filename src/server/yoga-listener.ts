/**
 * Yoga's answer to a node:http request, written to its response: what Yoga's own listener
 * (`yoga.handle`, @whatwg-node/server's `requestListener`) does, given the server context
 * whole. Why not that listener: handed a context of ours, it merges it into one of its own by
 * copying every property's descriptor, on every request: a share of a trivial operation's miss
 * that showed in its profile. A request Yoga fails to answer at all rejects here, and the
 * listener's caller answers 500 without Yoga's stack trace in the body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendNodeResponse } from '@whatwg-node/server';
import type { YogaServerInstance } from 'graphql-yoga';
import type { GatewayContext } from '../schema/context.js';
import type { ServerContext } from './server-context.js';

/** Yoga writes the status and every header in one `writeHead`, as its own listener does. */
const SINGLE_WRITE_HEAD = true;

export function yogaListener(yoga: YogaServerInstance<ServerContext, GatewayContext>) {
  return async (req: IncomingMessage, res: ServerResponse, context: ServerContext) => {
    const response = await yoga.handleNodeRequestAndResponse(req, res, { req, res, ...context });
    await sendNodeResponse(response, res, req, SINGLE_WRITE_HEAD);
  };
}
