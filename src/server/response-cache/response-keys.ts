/**
 * Response keys of requests seen lately, so that a body asked again is not hashed again.
 *
 * Why: a key is a SHA-256 digest (stored-response.ts `responseKey`): the key is shared through
 * Redis and between processes, and a client must not be able to make two requests share one.
 * On a hit that digest was a share of the request worth saving. A request repeated (the hits
 * the cache is for) finds its key here by its own text instead: the body or URL is looked up
 * in a map, compared whole, with the method, Accept header and generation it was keyed with.
 * A body is remembered only once it has been admitted (its UTF-8 checked), so the same bytes
 * again need no second check either.
 */
import { responseKey } from './stored-response.js';

export interface KeyedRequest {
  readonly method: string;
  readonly source: Buffer | string;
  readonly accept: string;
  readonly generation: string;
}

interface Known {
  readonly method: string;
  readonly accept: string;
  readonly generation: string;
  readonly key: string;
  /** Whether these bytes were a body that `admits` passed (a URL's text never was). */
  readonly admitted: boolean;
}

/** Requests remembered at most; past it the memo starts again, as the key id memo does. */
const REQUESTS_KEPT = 1_000;
/** Longer bodies or URLs are keyed afresh each time: remembering them costs more than it saves. */
const LONGEST_KEPT = 4_096;

/**
 * The key of a request; undefined for a body seen for the first time that `admits` refuses
 * (a URL is always keyed).
 */
export type ResponseKeys = (
  request: KeyedRequest,
  admits: (body: Buffer) => boolean,
) => string | undefined;

export function responseKeys(): ResponseKeys {
  const known = new Map<string, Known>();
  return (request, admits) => {
    const { source } = request;
    if (source.length > LONGEST_KEPT)
      return isAdmitted(source, admits) ? responseKey(request) : undefined;
    // latin1 maps each byte to one character: two bodies are the same text exactly when they
    // are the same bytes.
    const text = typeof source === 'string' ? source : source.toString('latin1');
    const found = known.get(text);
    if (
      found !== undefined &&
      found.method === request.method &&
      found.accept === request.accept &&
      found.generation === request.generation
    )
      return found.key;
    // A body's text found was admitted when it was remembered: the same bytes need no second
    // look. A URL's text is not a body that was looked at, though a body may have its bytes.
    if (found?.admitted !== true && !isAdmitted(source, admits)) return undefined;
    const key = responseKey(request);
    if (known.size >= REQUESTS_KEPT) known.clear();
    known.set(text, {
      method: request.method,
      accept: request.accept,
      generation: request.generation,
      key,
      admitted: typeof source !== 'string',
    });
    return key;
  };
}

const isAdmitted = (source: Buffer | string, admits: (body: Buffer) => boolean) =>
  typeof source === 'string' || admits(source);
