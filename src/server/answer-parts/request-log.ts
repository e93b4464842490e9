/**
 * The one structured log line per HTTP request, for Yoga's answers
 * (use-request-log.ts) and, with `LOG_CACHE_HITS=each`, response-cache hits
 * (fast-path.ts) alike: method, path, status, duration, and for GraphQL
 * operations their name and upstream cost. Keys never appear, only their hash
 * prefix. Hits are otherwise summed up a second at a time (hit-summaries.ts).
 */
import type { Logger } from 'pino';
import { type FieldLine, fieldLines, numberLines } from '../../log-lines.js';

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

/** A GraphQL operation's fields in its request's log line. */
export type LoggedOperation = NonNullable<RequestLogFields['operation']>;

/** Operations' lines kept per logger (their method, path, name and key); past it, made again. */
const OPERATION_LINES_KEPT = 1_000;
const operationLines = new WeakMap<Logger, Map<string, OperationLine>>();

/** An operation's line, and the counts its numbers are, in the order its fields name them. */
interface OperationLine {
  readonly write: FieldLine;
  readonly counts: readonly Count[];
}

export function logRequest(logger: Logger, fields: RequestLogFields): void {
  const { operation } = fields;
  if (operation === undefined) {
    logger.info(requestFields(fields), 'request');
    return;
  }
  // A line's fields but its numbers are the same for every request of one operation, key,
  // method and path: the line is made once for them (log-lines.ts).
  let lines = operationLines.get(logger);
  if (lines === undefined) {
    lines = new Map();
    operationLines.set(logger, lines);
  }
  const { method, path } = fields;
  // A null name is not the name "null": none is written as a character no name can hold.
  const name = operation.name ?? '\u0000';
  const id = `${method}\n${path}\n${name}\n${operation.keyId}\n${operation.responseCache}`;
  let line = lines.get(id);
  if (line === undefined) {
    if (lines.size >= OPERATION_LINES_KEPT) lines.clear();
    // The operation's fields as operationFields gives them, its counts given per line.
    const operationPart = Object.entries(operationFields(operation)).map(([field, value]) =>
      isCount(field) ? field : ([field, value] as const),
    );
    line = {
      write: fieldLines(
        logger,
        [['method', method], ['path', path], 'status', 'durationMs', ...operationPart],
        'request',
      ),
      counts: operationPart.filter(isCount),
    };
    lines.set(id, line);
  }
  const numbers = [fields.status, durationMs(fields.startedAt)];
  for (const count of line.counts) numbers.push(operation[count]);
  line.write(numbers);
}

/**
 * The same line for answers that repeat one operation's fields (response-cache hits of one
 * stored answer and key): all but the duration are the same from line to line, so each is
 * made once, when the first line of its method, path and status is written, and every line
 * then adds only its duration (log-lines.ts).
 */
export function operationLog(
  logger: Logger,
  operation: LoggedOperation,
): (fields: Omit<RequestLogFields, 'operation'>) => void {
  const bound = operationFields(operation);
  const lineOf = perStatus(({ method, path, status }) => ({
    method,
    path,
    line: numberLines(
      logger,
      Object.assign({}, bound, { method, path, status }),
      'durationMs',
      'request',
    ),
  }));
  return (fields) => lineOf(fields).line(durationMs(fields.startedAt));
}

/**
 * `make`'s value for each status one answer's lines are written with: made with the first line
 * of that status, and again when its method or path changes (`replaced` hears the value it
 * replaces). A hit answers 200, or 304 to a GET whose ETag matches.
 */
export function perStatus<T extends { readonly method: string | undefined; readonly path: string }>(
  make: (fields: Omit<RequestLogFields, 'operation'>) => T,
  replaced?: (value: T) => void,
): (fields: Omit<RequestLogFields, 'operation'>) => T {
  const byStatus = new Map<number, T>();
  return (fields) => {
    let made = byStatus.get(fields.status);
    if (made === undefined || made.method !== fields.method || made.path !== fields.path) {
      if (made !== undefined) replaced?.(made);
      made = make(fields);
      byStatus.set(fields.status, made);
    }
    return made;
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

/** The fields of operationFields counted per request: the numbers of logRequest's lines. */
const COUNTS = ['upstreamCalls', 'cacheHits', 'deduplicated', 'stale'] as const;
type Count = (typeof COUNTS)[number];
const isCount = (field: unknown): field is Count => (COUNTS as readonly unknown[]).includes(field);

/** The log line's fields of `operation`, in their order. */
export function operationFields(operation: LoggedOperation) {
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
