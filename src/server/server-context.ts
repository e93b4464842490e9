/**
 * What the node:http listener hands Yoga with every request, and so what
 * every plugin and the per-request context may read without a cast: the raw
 * request and response (the client's address, a body the listener already
 * read, the socket a subscription writes to), and the response cache's slot
 * (fast-path.ts fills it on a miss, recorder.ts reads it).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { YogaInitialContext } from 'graphql-yoga';
import type { GatewayContext } from '../schema/context.js';
import type { OperationParams } from '../schema/operation-estimates.js';
import type { RequestHeaders } from './caller.js';
import type { ResponseCacheSlot } from './response-cache/slot.js';

export interface ServerContext {
  /** Absent when a request comes through Yoga's fetch API (tests), not the listener. */
  readonly req?: IncomingMessage & { body?: unknown };
  readonly res?: ServerResponse;
  readonly responseCacheSlot?: ResponseCacheSlot;
}

/** What a request's context (gateway/request-context.ts) is made from: Yoga's initial context, or the miss lane's equivalent. */
export interface ContextSource {
  readonly request: RequestHeaders;
  readonly params: OperationParams;
  readonly req?: IncomingMessage;
  readonly res?: ServerResponse;
}

/** What a plugin's hooks see as `contextValue`: Yoga's own, the listener's and the resolvers'. */
export type RequestContext = YogaInitialContext & ServerContext & GatewayContext;
