/**
 * The Yoga side of the response cache: marks a complete answer as storable
 * and hands it to the fast path (fast-path.ts) through the server context's
 * slot. Only answers that are the whole truth for everyone are stored: no
 * errors, no records left out, nothing served stale, nothing about the
 * caller (`apiUsage`), no streamed or deferred parts.
 */
import { type ExecutionResult, getOperationAST } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GatewayContext } from '../../schema/context.js';
import { encodedData } from '../encoded-data.js';
import { answerVary, selectsUncacheable } from '../plugins/use-http-caching.js';
import type { StoredResponse } from './stored-response.js';

/** Filled by the recorder during a miss, read by the fast path once the answer is sent. */
export interface ResponseCacheSlot {
  record?: {
    data: string;
    operationName: string | null;
    freshUntil: number;
    reads: readonly string[];
  };
  response?: StoredResponse;
  freshUntil?: number;
}

/**
 * What JSON.stringify writes for a result, with `data` taken from `dataJson`
 * (its encoding) when the result still holds that very object: a page's
 * data is most of its bytes (180 KB for the top 20 with histories).
 */
export function reusingData(data: unknown, dataJson: string) {
  return (result: ExecutionResult): string => {
    if (result.data !== data) return JSON.stringify(result);
    const members: string[] = [];
    for (const [name, value] of Object.entries(result)) {
      // undefined for what JSON.stringify leaves out (functions, undefined), as it would.
      const json = name === 'data' ? dataJson : JSON.stringify(value);
      if (json !== undefined) members.push(`${JSON.stringify(name)}:${json}`);
    }
    return `{${members.join(',')}}`;
  };
}

export function useResponseCacheRecorder(): Plugin<
  GatewayContext & { responseCacheSlot?: ResponseCacheSlot }
> {
  return {
    onExecute({ args }) {
      const slot = args.contextValue.responseCacheSlot;
      if (slot === undefined || selectsUncacheable(args.document, args.operationName)) return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors !== undefined || result.data == null)
            return;
          const { stats } = args.contextValue;
          if (stats.stale.length > 0 || stats.warnings.length > 0 || stats.unauthenticated) return;
          const operationName =
            args.operationName ?? getOperationAST(args.document)?.name?.value ?? null;
          const data = encodedData(result.data);
          slot.record = {
            data,
            operationName,
            freshUntil: stats.freshUntil,
            reads: [...stats.reads],
          };
          // Yoga writes the answer with this instead of encoding the same data a second time.
          setResult({ ...result, stringify: reusingData(result.data, data) } as typeof result);
        },
      };
    },
    onResponse({ response, serverContext }) {
      const slot = (serverContext as { responseCacheSlot?: ResponseCacheSlot } | undefined)
        ?.responseCacheSlot;
      const record = slot?.record;
      if (slot === undefined || record === undefined || response.status !== 200) return;
      const contentType = response.headers.get('content-type');
      if (contentType === null || !contentType.includes('json')) return;
      const cacheControl = response.headers.get('cache-control');
      slot.response = {
        operationName: record.operationName,
        data: record.data,
        reads: record.reads,
        contentType,
        etag: response.headers.get('etag'),
        // A hit adds `Origin` when its own request has one.
        vary: answerVary(response.headers.get('vary')),
        cacheScope:
          cacheControl === null || cacheControl.includes('no-store')
            ? null
            : (cacheControl.split(',')[0]?.trim() ?? null),
      };
      slot.freshUntil = record.freshUntil;
    },
  };
}
