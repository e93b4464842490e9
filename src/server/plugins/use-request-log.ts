/**
 * The request log line (answer-parts/request-log.ts) of every request Yoga
 * answers, with the operation it named and what it cost.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import { requestPath } from '../../url-path.js';
import { logRequest } from '../answer-parts/request-log.js';
import { objectSlot } from '../object-slot.js';
import type { RequestContext } from '../server-context.js';

interface Operation {
  readonly name: string | null;
  readonly context: RequestContext;
}

export function useRequestLog(logger: Logger): Plugin<RequestContext> {
  const started = objectSlot<number>('request log: started at');
  const operations = objectSlot<Operation>('request log: operation');
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onExecute({ args }) {
      const { request } = args.contextValue;
      if (request !== undefined) {
        // Clients often name the operation only in the document, not in the request's operationName.
        const name =
          args.operationName ??
          getOperationAST(args.document, args.operationName)?.name?.value ??
          null;
        operations.set(request, { name, context: args.contextValue });
      }
    },
    onResponse({ request, response }) {
      const operation = operations.get(request);
      const report = operation?.context.report;
      logRequest(logger, {
        method: request.method,
        path: requestPath(request.url),
        status: response.status,
        startedAt: started.get(request),
        ...(operation === undefined
          ? {}
          : {
              operation: {
                name: operation.name,
                keyId: operation.context.caller.keyId,
                upstreamCalls: report?.upstreamCalls,
                cacheHits: report?.cacheHits,
                deduplicated: report?.deduplicated,
                stale: report?.stale.length,
              },
            }),
      });
    },
  };
}
