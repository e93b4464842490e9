/**
 * The one structured log line per HTTP request, for Yoga's answers
 * (use-request-log.ts) and response-cache hits (fast-path.ts) alike: method,
 * path, status, duration, and for GraphQL operations their name and upstream
 * cost. Keys never appear, only their hash prefix.
 */
import type { Logger } from 'pino';
import { type NumberLine, numberLines } from '../../log-lines.js';

export interface RequestLogFields {
  readonly method: string | undefined;
  readonly path: string;
  readonly status: number;
  /** performance.now() when the request arrived; undefined when not known. */
  readonly startedAt: number | undefined;
  /** Set once the request named a GraphQL operation. */
  readonly operation?: {
    readonly name: string | null;
    readonly keyId: string;
    readonly upstreamCalls: number | undefined;
    readonly cacheHits: number | undefined;
    readonly deduplicated: number | undefined;
    readonly stale: number | undefined;
    /** Set on an answer from the response cache. */
    readonly responseCache?: 'hit';
  };
}

type Operation = NonNullable<RequestLogFields['operation']>;

export function logRequest(logger: Logger, fields: RequestLogFields): void {
  const { operation } = fields;
  // One object, filled in place: spreading the two parts into a third cost as much as writing the line.
  const line: Record<string, unknown> = requestFields(fields);
  if (operation !== undefined) Object.assign(line, operationFields(operation));
  logger.info(line, 'request');
}

/**
 * The same line for answers that repeat one operation's fields (response-cache hits of one
 * stored answer and key): all but the duration are the same from line to line, so each is
 * made once, when the first line of its method, path and status is written, and every line
 * then adds only its duration (log-lines.ts).
 */
export function operationLog(
  logger: Logger,
  operation: Operation,
): (fields: Omit<RequestLogFields, 'operation'>) => void {
  const bound = operationFields(operation);
  /** By status: a hit answers 200, or 304 to a GET whose ETag matches. */
  const byStatus = new Map<
    number,
    { method: string | undefined; path: string; line: NumberLine }
  >();
  return (fields) => {
    let made = byStatus.get(fields.status);
    if (made === undefined || made.method !== fields.method || made.path !== fields.path) {
      const { method, path, status } = fields;
      made = {
        method,
        path,
        line: numberLines(logger, { ...bound, method, path, status }, 'durationMs', 'request'),
      };
      byStatus.set(fields.status, made);
    }
    made.line(durationMs(fields.startedAt));
  };
}

function requestFields(fields: Omit<RequestLogFields, 'operation'>) {
  return {
    method: fields.method,
    path: fields.path,
    status: fields.status,
    durationMs: durationMs(fields.startedAt),
  };
}

function durationMs(startedAt: number | undefined): number | undefined {
  return startedAt === undefined
    ? undefined
    : Math.round((performance.now() - startedAt) * 10) / 10;
}

function operationFields(operation: Operation) {
  return {
    operation: operation.name,
    key: operation.keyId.slice(0, 8),
    upstreamCalls: operation.upstreamCalls,
    cacheHits: operation.cacheHits,
    deduplicated: operation.deduplicated,
    stale: operation.stale,
    ...(operation.responseCache === undefined ? {} : { responseCache: operation.responseCache }),
  };
}
