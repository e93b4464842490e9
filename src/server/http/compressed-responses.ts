/**
 * Whole answers leave the listener in one write, compressed for the clients
 * that accept it (`Accept-Encoding`: br, gzip or deflate), around the whole
 * node:http listener, so that answers from the response cache and from Yoga
 * alike are: JSON of many records compresses several times over.
 *
 * Why not a compression stream per answer (the `compression` middleware):
 * its compressors run on libuv's four threads, so under many concurrent
 * answers every one of them waits at once, each holding a compressor's
 * state. Here an answer is compressed in one call, on the event loop, when
 * it is complete: one compressor's state at a time, freed at once, for the
 * same CPU time; quality and level are chosen for JSON made on every request
 * (docs/decisions/compression-in-one-call.md).
 *
 * - Whole answers only: JSON, `text/plain` (/metrics) and `text/html`, from
 *   `compressFrom` bytes; never a stream (SSE subscriptions, multipart
 *   @defer and @stream), whose events must leave as they come. A stream's
 *   head goes out as it is written.
 * - A whole answer is held until its end (its bytes are in memory already:
 *   Yoga writes a Buffer), then written with its length in one go: whoever
 *   writes it never waits for a slow client's socket to drain. That is the
 *   moment the answer is handed over (`answerHandedOver`): the request's
 *   turn (request-turns.ts) ends there.
 * - What a socket has not taken of its answer yet is the answer backlog:
 *   all of them together are bounded (ANSWER_BACKLOG_TOTAL_BYTES,
 *   furthest-behind-first.ts); past it, the connection furthest behind is closed.
 * - `Vary: Accept-Encoding` on every whole answer to a request that names
 *   encodings; an answer that has its encoding already (a response-cache hit
 *   in gzip, GraphiQL's stored forms), `Cache-Control: no-transform`, HEAD,
 *   204 and 304 are left as they are.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { brotliCompressSync, constants, deflateSync, gzipSync } from 'node:zlib';
import Negotiator from 'negotiator';
import type { FurthestBehindFirst } from '../memory/furthest-behind-first.js';
import { GZIP_LEVEL } from '../response-cache/gzip-answer.js';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;
type Coding = 'br' | 'gzip' | 'deflate';

export const DEFAULT_COMPRESSION_MIN_BYTES = 1024;
export const DEFAULT_ANSWER_BACKLOG_TOTAL_BYTES = 16 * 1024 * 1024;
const BROTLI_QUALITY = 1;

/** Whole answers, by media type; `text/event-stream` and `multipart/mixed` are not among them. */
const WHOLE_ANSWERS =
  /^\s*(application\/(json|graphql-response\+json)|text\/html|text\/plain)\s*(;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** Emitted on a response once its answer is handed to node:http whole, or its stream has begun. */
const HANDED_OVER = Symbol('answer handed over');

/** Resolves once `res`'s answer has been handed over whole, its stream has begun, or it closed. */
export function answerHandedOver(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    if (res.headersSent || res.destroyed) {
      resolve();
      return;
    }
    res.once(HANDED_OVER, resolve);
    res.once('close', resolve);
  });
}

/**
 * The encoding a request gets among `available`: the one it prefers, and on a tie ours, in
 * `available`'s order (negotiator's `preferred`, which @types/negotiator leaves out).
 */
export function preferredEncoding<T extends string>(
  req: IncomingMessage,
  available: readonly T[],
): T | undefined {
  if (req.headers['accept-encoding'] === undefined) return undefined;
  const negotiator = new Negotiator(req) as unknown as {
    encoding(available: string[], preferred: string[]): string | undefined;
  };
  const chosen = negotiator.encoding([...available, 'identity'], [...available]);
  return available.find((name) => name === chosen);
}

function compressed(body: Buffer, coding: Coding): Buffer {
  if (coding === 'br')
    return brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
  return coding === 'gzip'
    ? gzipSync(body, { level: GZIP_LEVEL })
    : deflateSync(body, { level: GZIP_LEVEL });
}

/** The headers `writeHead` was given, set on `res` (an object, or a flat or paired array). */
function setHeaders(res: ServerResponse, headers: unknown): void {
  if (headers === undefined || headers === null) return;
  if (!Array.isArray(headers)) {
    for (const [name, value] of Object.entries(headers as OutgoingHttpHeaders))
      if (value !== undefined) res.setHeader(name, value);
    return;
  }
  if (headers.length > 0 && Array.isArray(headers[0])) {
    for (const [name, value] of headers as [string, string][]) res.setHeader(name, value);
    return;
  }
  for (let i = 0; i + 1 < headers.length; i += 2)
    res.setHeader(String(headers[i]), headers[i + 1] as string);
}

function addVary(res: ServerResponse, name: string): void {
  const vary = res.getHeader('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  const names = current.split(',').map((each) => each.trim().toLowerCase());
  if (names.includes('*') || names.includes(name.toLowerCase())) return;
  res.setHeader('vary', current.trim() === '' ? name : `${current}, ${name}`);
}

function bytesOf(chunk: unknown, encoding?: BufferEncoding): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.length);
  return Buffer.from(String(chunk), encoding);
}

export interface WholeAnswerOptions {
  /** Answers of this many bytes or more are compressed for clients that accept it; absent: never. */
  readonly compressFrom?: number;
  /** The bound on answer bytes written and not yet taken by their sockets, all together. */
  readonly backlog?: FurthestBehindFirst;
  /** An answer's connection was closed, `bytes` of it not taken, to keep within `backlog`. */
  readonly dropped?: (req: IncomingMessage, bytes: number) => void;
}

/** `listener` with its whole answers written in one go, compressed for clients that accept it. */
export function withWholeAnswers(listener: Listener, options: WholeAnswerOptions = {}): Listener {
  const { compressFrom } = options;
  if (compressFrom !== undefined && (!Number.isSafeInteger(compressFrom) || compressFrom < 0))
    throw new Error(`compressFrom must be a non-negative integer: ${compressFrom}`);
  return (req, res) => {
    holdWholeAnswer(req, res, options);
    listener(req, res);
  };
}

/** Counts what `res`'s socket has not taken of its answer against the backlog, until it has. */
function countBacklog(req: IncomingMessage, res: ServerResponse, options: WholeAnswerOptions) {
  const { backlog } = options;
  if (backlog === undefined || res.writableLength === 0) return;
  const member = {
    behind: () => (res.writableFinished ? 0 : res.writableLength),
    drop(bytes: number) {
      options.dropped?.(req, bytes);
      res.destroy();
    },
  };
  const leave = () => backlog.leave(member);
  res.once('finish', leave);
  res.once('close', leave);
  backlog.holds(member, res.writableLength);
}

function holdWholeAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  options: WholeAnswerOptions,
): void {
  const { compressFrom } = options;
  const { writeHead, write, end } = res;
  let mode: 'open' | 'whole' | 'stream' = 'open';
  let status = 200;
  let reason: string | undefined;
  const chunks: Buffer[] = [];
  const callbacks: (() => void)[] = [];

  /** node:http's own writeHead, with the reason phrase when one was given (headers are set on `res`). */
  const sendHead = () =>
    (writeHead as (this: ServerResponse, status: number, reason?: string) => ServerResponse).call(
      res,
      status,
      reason,
    );
  const sendEnd = end as (this: ServerResponse, body: Buffer, done?: () => void) => ServerResponse;
  const sendPart = write as (this: ServerResponse, part: Buffer) => boolean;
  const release = () => {
    res.writeHead = writeHead;
    res.write = write;
    res.end = end;
  };
  /** Once the head is known: a whole answer is held; anything else goes out as it is written. */
  const decide = () => {
    const type = String(res.getHeader('content-type') ?? '');
    const whole =
      req.method !== 'HEAD' &&
      status >= 200 &&
      status !== 204 &&
      status !== 304 &&
      WHOLE_ANSWERS.test(type);
    if (whole) {
      mode = 'whole';
      return;
    }
    mode = 'stream';
    release();
    sendHead();
    res.emit(HANDED_OVER);
  };
  const opened = () => {
    if (mode !== 'open') return;
    status = res.statusCode;
    decide();
  };

  res.writeHead = function heldHead(this: ServerResponse, code: number, ...rest: unknown[]) {
    status = code;
    if (typeof rest[0] === 'string') reason = rest[0];
    setHeaders(res, typeof rest[0] === 'string' ? rest[1] : rest[0]);
    decide();
    return res;
  } as typeof res.writeHead;

  res.write = function heldWrite(chunk: unknown, ...rest: unknown[]): boolean {
    opened();
    if (mode === 'stream')
      return (write as (...args: unknown[]) => boolean).call(res, chunk, ...rest);
    const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined;
    const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    chunks.push(bytesOf(chunk, encoding));
    if (callback !== undefined) callbacks.push(callback);
    // Held in memory, not on a socket: the writer never waits for a drain.
    return true;
  } as typeof res.write;

  res.end = function heldEnd(...args: unknown[]) {
    opened();
    if (mode === 'stream') return (end as (...a: unknown[]) => ServerResponse).apply(res, args);
    const [chunk, second] = args;
    if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
      chunks.push(
        bytesOf(chunk, typeof second === 'string' ? (second as BufferEncoding) : undefined),
      );
    const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
    if (callback !== undefined) callbacks.push(callback);
    release();
    // As written, unless compressed: a hit's parts (its stored bytes, its own tail) are not copied.
    const parts = encodedForClient(req, res, chunks.splice(0), compressFrom);
    res.setHeader(
      'content-length',
      parts.reduce((length, part) => length + part.length, 0),
    );
    sendHead();
    for (const part of parts.slice(0, -1)) sendPart.call(res, part);
    const last = parts.at(-1) ?? Buffer.alloc(0);
    if (callbacks.length === 0) sendEnd.call(res, last);
    else
      sendEnd.call(res, last, () => {
        for (const callback of callbacks) callback();
      });
    countBacklog(req, res, options);
    res.emit(HANDED_OVER);
    return res;
  } as typeof res.end;
}

/** The answer's `parts` as the client gets them: one compressed body when it accepts an encoding and the answer may be. */
function encodedForClient(
  req: IncomingMessage,
  res: ServerResponse,
  parts: Buffer[],
  compressFrom: number | undefined,
): Buffer[] {
  if (compressFrom === undefined || req.headers['accept-encoding'] === undefined) return parts;
  if (NO_TRANSFORM.test(String(res.getHeader('cache-control') ?? ''))) return parts;
  addVary(res, 'Accept-Encoding');
  const current = res.getHeader('content-encoding');
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  if (length < compressFrom || (current !== undefined && current !== 'identity')) return parts;
  const coding = preferredEncoding<Coding>(req, ['br', 'gzip', 'deflate']);
  if (coding === undefined) return parts;
  res.setHeader('content-encoding', coding);
  return [compressed(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length), coding)];
}
