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
 *   turn (request-turns.ts) ends there. A maker that has its answer whole
 *   before writing (a response-cache hit) hands it over in one call
 *   (`sendWholeAnswer`), the same way, without its being held.
 * - What a socket has not taken of its answer yet is the answer backlog:
 *   all of them together are bounded (ANSWER_BACKLOG_TOTAL_BYTES,
 *   furthest-behind-first.ts); past it, the connection furthest behind is closed.
 * - `Vary: Accept-Encoding` on every whole answer to a request that names
 *   encodings; an answer that has its encoding already (a response-cache hit
 *   in gzip, GraphiQL's stored forms), `Cache-Control: no-transform`, HEAD,
 *   204 and 304 are left as they are.
 */
import { type IncomingMessage, type OutgoingHttpHeaders, ServerResponse } from 'node:http';
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

/**
 * An answer's headers, wherever they are kept: on the response (set by whoever wrote through
 * it) or in the object its maker hands over whole (lower-case names, as node:http keeps them).
 */
interface AnswerHeaders {
  get(name: string): unknown;
  set(name: string, value: string): void;
}

const onResponse = (res: ServerResponse): AnswerHeaders => ({
  get: (name) => res.getHeader(name),
  set: (name, value) => res.setHeader(name, value),
});

const inObject = (headers: Record<string, string>): AnswerHeaders => ({
  get: (name) => headers[name],
  set: (name, value) => {
    headers[name] = value;
  },
});

function addVary(headers: AnswerHeaders, name: string): void {
  const vary = headers.get('vary');
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary);
  const names = current.split(',').map((each) => each.trim().toLowerCase());
  if (names.includes('*') || names.includes(name.toLowerCase())) return;
  headers.set('vary', current.trim() === '' ? name : `${current}, ${name}`);
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

/** The layer's options, on each response that passed through it. */
const LAYER = Symbol('whole answers');
/** What the layer holds of an answer written through its response, from the first write on. */
const HELD = Symbol('held answer');

interface Held {
  mode: 'open' | 'whole' | 'stream';
  status: number;
  reason: string | undefined;
  readonly chunks: Buffer[];
  readonly callbacks: (() => void)[];
}

type Layered = ServerResponse & { [LAYER]?: WholeAnswerOptions; [HELD]?: Held };

/** node:http's own methods, which the layer's stand in for on each response until it is answered. */
const {
  writeHead: nodeWriteHead,
  write: nodeWrite,
  end: nodeEnd,
} = ServerResponse.prototype as unknown as {
  writeHead(this: ServerResponse, status: number, ...rest: unknown[]): ServerResponse;
  write(this: ServerResponse, ...args: unknown[]): boolean;
  end(this: ServerResponse, ...args: unknown[]): ServerResponse;
};

/** `listener` with its whole answers written in one go, compressed for clients that accept it. */
export function withWholeAnswers(listener: Listener, options: WholeAnswerOptions = {}): Listener {
  const { compressFrom } = options;
  if (compressFrom !== undefined && (!Number.isSafeInteger(compressFrom) || compressFrom < 0))
    throw new Error(`compressFrom must be a non-negative integer: ${compressFrom}`);
  return (req, res) => {
    // Shared stand-ins that find the answer's state on the response, not closures made per
    // request: a request whose maker sends its answer whole (sendWholeAnswer) allocates nothing
    // here. Under load V8 pretenured the per-request closures, and every young object they
    // reached (request, response, buffers) was promoted with them: each scavenge grew the old
    // space, and cost many times what it costs without them.
    (res as Layered)[LAYER] = options;
    res.writeHead = heldHead as typeof res.writeHead;
    res.write = heldWrite as typeof res.write;
    res.end = heldEnd as typeof res.end;
    listener(req, res);
  };
}

/**
 * Writes an answer its maker already has whole (a response-cache hit: its stored bytes and
 * its own tail), as the layer would have written it held (encoding, Vary, length, one write,
 * the backlog), without holding it first. `headers` have lower-case names.
 */
export function sendWholeAnswer(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  parts: readonly Buffer[],
): void {
  const options = (res as Layered)[LAYER];
  release(res);
  const whole = isWhole(res.req, status, headers['content-type'] ?? '');
  const sent =
    options === undefined || !whole
      ? parts
      : encodedForClient(res.req, inObject(headers), parts, options.compressFrom);
  const length = lengthOf(sent);
  if (sent.length > 0) headers['content-length'] = String(length);
  nodeWriteHead.call(res, status, headers);
  writeParts(res, sent, length, []);
  if (options !== undefined && whole) countBacklog(res.req, res, options);
  res.emit(HANDED_OVER);
}

/** Whether an answer is held until its end: a body, and a media type never streamed. */
function isWhole(req: IncomingMessage, status: number, type: string): boolean {
  return (
    req.method !== 'HEAD' &&
    status >= 200 &&
    status !== 204 &&
    status !== 304 &&
    WHOLE_ANSWERS.test(type)
  );
}

/**
 * Answers in parts shorter than this are joined before they are written: node:buffer takes
 * their copy from its pool, where a longer one would be an allocation of its own per answer.
 */
const JOINED_BELOW = Buffer.poolSize >>> 1;

const lengthOf = (parts: readonly Buffer[]) => parts.reduce((sum, part) => sum + part.length, 0);

/** node:http's methods back on `res`: its answer is being written, or goes out as written. */
function release(res: ServerResponse): void {
  res.writeHead = nodeWriteHead as typeof res.writeHead;
  res.write = nodeWrite as typeof res.write;
  res.end = nodeEnd as typeof res.end;
}

/** `given`, `length` bytes in all, as the answer's body; `callbacks` once it has been written. */
function writeParts(
  res: ServerResponse,
  given: readonly Buffer[],
  length: number,
  callbacks: (() => void)[],
) {
  // A small answer in parts is joined first: one write through node:http's stream costs more
  // than copying it.
  const parts = given.length > 1 && length < JOINED_BELOW ? [Buffer.concat(given, length)] : given;
  // Corked before the first write: node:http would cork the socket there itself and queue a
  // task to uncork it, where the end that follows uncorks it anyway, parts and all in one write.
  if (parts.length > 1) res.cork();
  for (let i = 0; i < parts.length - 1; i += 1) nodeWrite.call(res, parts[i]);
  const last = parts.at(-1);
  const done =
    callbacks.length === 0
      ? undefined
      : () => {
          for (const callback of callbacks) callback();
        };
  if (last === undefined) nodeEnd.call(res, done);
  else nodeEnd.call(res, last, done);
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

function heldOf(res: Layered): Held {
  let held = res[HELD];
  if (held === undefined) {
    held = { mode: 'open', status: 200, reason: undefined, chunks: [], callbacks: [] };
    res[HELD] = held;
  }
  return held;
}

/** Once the head is known: a whole answer is held; anything else goes out as it is written. */
function decide(res: ServerResponse, held: Held): void {
  if (isWhole(res.req, held.status, String(res.getHeader('content-type') ?? ''))) {
    held.mode = 'whole';
    return;
  }
  held.mode = 'stream';
  release(res);
  nodeWriteHead.call(res, held.status, held.reason);
  res.emit(HANDED_OVER);
}

function opened(res: ServerResponse, held: Held): void {
  if (held.mode !== 'open') return;
  held.status = res.statusCode;
  decide(res, held);
}

function heldHead(this: Layered, code: number, ...rest: unknown[]): ServerResponse {
  const held = heldOf(this);
  held.status = code;
  if (typeof rest[0] === 'string') held.reason = rest[0];
  setHeaders(this, typeof rest[0] === 'string' ? rest[1] : rest[0]);
  decide(this, held);
  return this;
}

function heldWrite(this: Layered, chunk: unknown, ...rest: unknown[]): boolean {
  const held = heldOf(this);
  opened(this, held);
  if (held.mode === 'stream') return nodeWrite.call(this, chunk, ...rest);
  const encoding = typeof rest[0] === 'string' ? (rest[0] as BufferEncoding) : undefined;
  const callback = rest.find((arg) => typeof arg === 'function') as (() => void) | undefined;
  held.chunks.push(bytesOf(chunk, encoding));
  if (callback !== undefined) held.callbacks.push(callback);
  // Held in memory, not on a socket: the writer never waits for a drain.
  return true;
}

function heldEnd(this: Layered, ...args: unknown[]): ServerResponse {
  const held = heldOf(this);
  opened(this, held);
  if (held.mode === 'stream') return nodeEnd.apply(this, args);
  const [chunk, second] = args;
  if (chunk !== undefined && chunk !== null && typeof chunk !== 'function')
    held.chunks.push(
      bytesOf(chunk, typeof second === 'string' ? (second as BufferEncoding) : undefined),
    );
  const callback = args.find((arg) => typeof arg === 'function') as (() => void) | undefined;
  if (callback !== undefined) held.callbacks.push(callback);
  release(this);
  const options = this[LAYER] ?? {};
  const parts = encodedForClient(
    this.req,
    onResponse(this),
    held.chunks.splice(0),
    options.compressFrom,
  );
  const length = lengthOf(parts);
  this.setHeader('content-length', length);
  nodeWriteHead.call(this, held.status, held.reason);
  writeParts(this, parts.length === 0 ? [Buffer.alloc(0)] : parts, length, held.callbacks);
  countBacklog(this.req, this, options);
  this.emit(HANDED_OVER);
  return this;
}

/** The answer's `parts` as the client gets them: one compressed body when it accepts an encoding and the answer may be. */
function encodedForClient(
  req: IncomingMessage,
  headers: AnswerHeaders,
  parts: readonly Buffer[],
  compressFrom: number | undefined,
): readonly Buffer[] {
  if (compressFrom === undefined || req.headers['accept-encoding'] === undefined) return parts;
  if (NO_TRANSFORM.test(String(headers.get('cache-control') ?? ''))) return parts;
  addVary(headers, 'Accept-Encoding');
  const current = headers.get('content-encoding');
  const length = lengthOf(parts);
  if (length < compressFrom || (current !== undefined && current !== 'identity')) return parts;
  const coding = preferredEncoding<Coding>(req, ['br', 'gzip', 'deflate']);
  if (coding === undefined) return parts;
  headers.set('content-encoding', coding);
  return [compressed(parts.length === 1 ? parts[0]! : Buffer.concat(parts, length), coding)];
}
