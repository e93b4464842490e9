/**
 * One structured log line per HTTP request: method, path, status, duration,
 * and for GraphQL operations their name and upstream cost. Keys never appear,
 * only their hash prefix.
 */
import { getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { GatewayContext } from '../../schema/context.js';

interface Operation {
  readonly name: string | null;
  readonly context: GatewayContext;
}

export function useRequestLog(logger: Logger): Plugin<GatewayContext> {
  const started = new WeakMap<Request, number>();
  const operations = new WeakMap<Request, Operation>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
    },
    onExecute({ args }) {
      const request = (args.contextValue as GatewayContext & { request?: Request }).request;
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
      const start = started.get(request);
      const operation = operations.get(request);
      const stats = operation?.context.stats;
      logger.info(
        {
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          durationMs:
            start === undefined ? undefined : Math.round((performance.now() - start) * 10) / 10,
          ...(operation !== undefined
            ? {
                operation: operation.name,
                key: operation.context.caller.keyId.slice(0, 8),
                upstreamCalls: stats?.upstreamCalls,
                cacheHits: stats?.cacheHits,
                deduplicated: stats?.deduplicated,
                stale: stats?.stale.length,
              }
            : {}),
        },
        'request',
      );
    },
  };
}
