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
import { encodedData } from '../http/encoded-data.js';
import { answerVary, selectsUncacheable } from '../plugins/use-http-caching.js';
import type { RequestContext, ServerContext } from '../server-context.js';
import type { ResponseCacheSlot } from './slot.js';
import { keepDataBytes } from './stored-response.js';

/**
 * What JSON.stringify writes for a result, as UTF-8 bytes, with `data` taken
 * from `dataJson` (its encoding) when the result still holds that very
 * object: a page's data is most of its bytes (180 KB for the top 20 with
 * histories). Bytes, not text: Yoga's Response takes either, and bytes go to
 * the socket as they are, where text would be measured for Content-Length
 * and encoded again on the way out. `kept` is told where the data's bytes
 * lie, so that a response-cache hit writes them without encoding them again.
 */
export function reusingData(data: unknown, dataJson: string, kept?: (dataBytes: Buffer) => void) {
  return (result: ExecutionResult): string | Buffer => {
    if (result.data !== data) return JSON.stringify(result);
    const before: string[] = [];
    const after: string[] = [];
    let members = before;
    for (const [name, value] of Object.entries(result)) {
      if (name === 'data') {
        members = after;
        continue;
      }
      // undefined for what JSON.stringify leaves out (functions, undefined), as it would.
      const json = JSON.stringify(value);
      if (json !== undefined) members.push(`${JSON.stringify(name)}:${json}`);
    }
    const head = `{${before.map((member) => `${member},`).join('')}"data":`;
    const tail = `${after.map((member) => `,${member}`).join('')}}`;
    const headLength = Buffer.byteLength(head);
    const dataLength = Buffer.byteLength(dataJson);
    // Not from Buffer's shared pool: the data's bytes may outlive the answer in the cache.
    const body = Buffer.allocUnsafeSlow(headLength + dataLength + Buffer.byteLength(tail));
    body.write(head, 0);
    // One byte per character is ASCII: copied as Latin-1, its identical and cheaper encoding.
    body.write(dataJson, headLength, dataLength === dataJson.length ? 'latin1' : 'utf8');
    body.write(tail, headLength + dataLength);
    kept?.(body.subarray(headLength, headLength + dataLength));
    return body;
  };
}

export function useResponseCacheRecorder(): Plugin<RequestContext, ServerContext> {
  return {
    onExecute({ args }) {
      const slot = args.contextValue.responseCacheSlot;
      if (slot === undefined || selectsUncacheable(args.document, args.operationName)) return;
      // A key's first miss is not stored, so nothing is recorded; but a GET's ETag encodes its
      // data (use-http-caching.ts), which Yoga then writes rather than encoding it again.
      const admitted = slot.admitted === true;
      if (!admitted && args.contextValue.request.method !== 'GET') return;
      return {
        onExecuteDone({ result, setResult }) {
          if (Symbol.asyncIterator in result || result.errors !== undefined || result.data == null)
            return;
          if (!admitted) {
            const stringify = reusingData(result.data, encodedData(result.data));
            setResult(Object.assign({}, result, { stringify }));
            return;
          }
          const operationName =
            args.operationName ?? getOperationAST(args.document)?.name?.value ?? null;
          const recordedResult = recorded(slot, result, args.contextValue, operationName);
          if (recordedResult !== undefined) setResult(recordedResult);
        },
      };
    },
    onResponse({ response, serverContext }) {
      const slot = serverContext.responseCacheSlot;
      if (slot !== undefined)
        keepAnswer(slot, response.status, (name) => response.headers.get(name));
    },
  };
}

/**
 * An admitted miss's complete answer, its record put in the slot: the result that writes its
 * data once, or undefined when the answer is not the whole truth for everyone (the miss lane's
 * answers are recorded here too).
 */
export function recorded(
  slot: ResponseCacheSlot,
  result: ExecutionResult,
  context: Pick<GatewayContext, 'report' | 'spending'>,
  operationName: string | null,
): ExecutionResult | undefined {
  if (result.errors !== undefined || result.data == null) return undefined;
  const { report, spending } = context;
  if (report.stale.length > 0 || report.warnings.length > 0 || report.unauthenticated)
    return undefined;
  const data = encodedData(result.data);
  const record: NonNullable<ResponseCacheSlot['record']> = {
    data,
    operationName,
    freshUntil: report.freshUntil,
    reads: [...report.reads],
    estimated: spending.estimatedCalls,
  };
  slot.record = record;
  // Yoga writes the answer with this instead of encoding the same data a second time.
  return Object.assign({}, result, {
    stringify: reusingData(result.data, data, (bytes) => {
      record.dataBytes = bytes;
    }),
  });
}

/** Once the answer's status and headers are known: what the fast path stores of a recorded answer. */
export function keepAnswer(
  slot: ResponseCacheSlot,
  status: number,
  header: (name: string) => string | null,
): void {
  const record = slot.record;
  if (record === undefined || status !== 200) return;
  const contentType = header('content-type');
  if (contentType === null || !contentType.includes('json')) return;
  const cacheControl = header('cache-control');
  slot.response = {
    operationName: record.operationName,
    data: record.data,
    reads: record.reads,
    ...(record.estimated === undefined ? {} : { estimated: record.estimated }),
    contentType,
    etag: header('etag'),
    // A hit adds `Origin` when its own request has one.
    vary: answerVary(header('vary')),
    cacheScope:
      cacheControl === null || cacheControl.includes('no-store')
        ? null
        : (cacheControl.split(',')[0]?.trim() ?? null),
  };
  if (record.dataBytes !== undefined) keepDataBytes(slot.response, record.dataBytes);
  slot.freshUntil = record.freshUntil;
}
