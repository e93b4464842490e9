/**
 * HTTP caching of GET queries. The upstream refreshes its data once a day,
 * so a successful GET answer carries `Cache-Control` with a max-age (at most
 * `maxAgeSeconds`, and never past the next midnight UTC, when the upstream
 * day turns) and a weak `ETag`; `If-None-Match` with that tag answers 304.
 *
 * - The ETag covers `data` and the media type, not `extensions`: the cost
 *   report differs on every request (cache hits, remaining budget) while the
 *   data is the same, and a weak tag promises exactly that equivalence.
 * - The query still runs before a 304 (from the gateway's cache, usually at
 *   no upstream cost): it is what checks the client's key in pass-through
 *   mode, so a rejected key never gets a 304 for data it should not see.
 * - Server-key mode: `public`, everyone sees the same data. Pass-through
 *   mode: `private` (only the client's own cache), since the answer depends
 *   on the Authorization header being a valid key.
 * - Answers with errors, answers about the caller (`apiUsage`), and every
 *   POST are `no-store`.
 * - `Vary` adds `Accept` (and `Authorization`) to what the answer already
 *   varies on: an answer that echoes the request's Origin (Yoga's CORS) says
 *   `Vary: Origin`, so a shared cache never hands one origin's CORS header to
 *   another. With compression on (compressed-responses.ts), `Accept-Encoding`
 *   too, on every answer and every 304, whether or not this request asked
 *   for an encoding: a shared cache must not hand brotli to a client that
 *   cannot read it, nor keep an identity copy as the only one.
 */
import { createHash } from 'node:crypto';
import {
  type DocumentNode,
  type ExecutionResult,
  getOperationAST,
  Kind,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS } from '../../setting-defaults.js';
import { requestPath } from '../../url-path.js';
import { encodedData } from '../http/encoded-data.js';
import type { RequestContext } from '../server-context.js';

/** Root fields whose answer changes with every request or caller. */
const UNCACHEABLE_ROOT_FIELDS = new Set(['apiUsage']);

export interface HttpCachingOptions {
  readonly maxAgeSeconds?: number;
  /** `private` instead of `public`: the answer depends on the client's own key. */
  readonly perClient?: boolean;
  /** Answers may be compressed (compressed-responses.ts): they vary on `Accept-Encoding` too. */
  readonly compressed?: boolean;
  readonly now?: () => Date;
}

/**
 * How a complete GET answer is made cacheable: its ETag, Cache-Control and Vary. Yoga's answers
 * (this plugin) and the miss lane's (miss-lane/) both take them from here.
 */
export class GetCaching {
  readonly #maxAgeSeconds: number;
  readonly #perClient: boolean;
  readonly #now: () => Date;
  readonly #vary: string;

  constructor({
    maxAgeSeconds = DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS,
    perClient = false,
    compressed = false,
    now = () => new Date(),
  }: HttpCachingOptions = {}) {
    if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0) {
      throw new Error(`maxAgeSeconds must be a non-negative integer: ${maxAgeSeconds}`);
    }
    this.#maxAgeSeconds = maxAgeSeconds;
    this.#perClient = perClient;
    this.#now = now;
    this.#vary = [
      'Accept',
      ...(perClient ? ['Authorization'] : []),
      ...(compressed ? ['Accept-Encoding'] : []),
    ].join(', ');
  }

  /** The headers of a complete answer of media type `type` whose `data` is encoded so; `vary`: what it varies on already. */
  headers(
    type: string,
    data: string,
    vary: string | null,
  ): { etag: string; 'cache-control': string; vary: string } {
    return {
      etag: `W/"${createHash('sha256').update(type.split(';')[0]!).update('\n').update(data).digest('base64url').slice(0, 32)}"`,
      'cache-control': `${this.#perClient ? 'private' : 'public'}, max-age=${maxAge(this.#now(), this.#maxAgeSeconds)}`,
      vary: varyWith(this.#vary, vary),
    };
  }
}

export function useHttpCaching(
  caching: GetCaching,
  graphqlEndpoint = '/graphql',
): Plugin<RequestContext> {
  const uncacheable = new WeakSet<Request>();
  /** The encoded `data` of each complete answer without errors, as Yoga is about to write it. */
  const complete = new WeakMap<Request, string>();

  return {
    onResultProcess({ request, result }) {
      if (request.method !== 'GET' || Array.isArray(result) || Symbol.asyncIterator in result)
        return;
      const data = completeData(result as ExecutionResult);
      if (data !== undefined) complete.set(request, data);
    },
    onExecute({ args }) {
      const { request } = args.contextValue;
      if (selectsUncacheable(args.document, args.operationName)) uncacheable.add(request);
    },
    onResponse({ request, response, setResponse }) {
      if (requestPath(request.url) !== graphqlEndpoint) return;
      const type = response.headers.get('content-type') ?? '';
      if (!type.includes('json')) return; // GraphiQL's page, 406, 415…
      if (request.method !== 'GET' || response.status !== 200 || uncacheable.has(request)) {
        response.headers.set('cache-control', 'no-store');
        return;
      }
      // Only a GET's answer is read back, for its ETag: every other returns without a promise.
      return validated(request, response, type, setResponse);
    },
  };

  async function validated(
    request: Request,
    response: Response,
    type: string,
    setResponse: (response: Response) => void,
  ): Promise<void> {
    // As bytes: the answer is usually bytes already (response-cache/recorder.ts), and stays so.
    const answer = await response.arrayBuffer();
    const body = Buffer.isBuffer(answer) ? answer : Buffer.from(answer);
    const headers = new Headers(response.headers);
    // Known from the result itself, without reading the answer back (a page's is 180 KB).
    const data = complete.get(request) ?? completeDataOf(body.toString('utf8'));
    if (data === undefined) {
      headers.set('cache-control', 'no-store');
      setResponse(new Response(body, { status: response.status, headers }));
      return;
    }
    const cacheable = caching.headers(type, data, headers.get('vary'));
    for (const [name, value] of Object.entries(cacheable)) headers.set(name, value);
    if (matches(request.headers.get('if-none-match'), cacheable.etag)) {
      const notModified = notModifiedHeaders((name) => headers.get(name));
      setResponse(new Response(null, { status: 304, headers: notModified }));
      return;
    }
    setResponse(new Response(body, { status: response.status, headers }));
  }
}

/** The encoded `data` of an answer read back, when it is complete and without errors. */
function completeDataOf(text: string): string | undefined {
  const body = JSON.parse(text) as { data?: unknown; errors?: unknown[] };
  return body.errors !== undefined || body.data == null ? undefined : JSON.stringify(body.data);
}

/** The encoded `data` of a complete answer (no errors, data present): what a GET's ETag covers. */
export function completeData(result: ExecutionResult): string | undefined {
  const { data, errors } = result;
  return errors === undefined && typeof data === 'object' && data !== null
    ? encodedData(data)
    : undefined;
}

/** The headers a 304 repeats of its 200's, read through `header`. */
export function notModifiedHeaders(header: (name: string) => string | null | undefined) {
  const kept: Record<string, string> = {};
  for (const name of NOT_MODIFIED_HEADERS) {
    const value = header(name);
    if (value !== null && value !== undefined) kept[name] = value;
  }
  return kept;
}

/** What a 304 repeats of its 200 (as the response cache's 304 does): validators, caching and CORS. */
const NOT_MODIFIED_HEADERS = [
  'etag',
  'cache-control',
  'vary',
  'access-control-allow-origin',
  'access-control-allow-credentials',
];

/** The names Yoga's CORS adds to `Vary` for the request at hand, not for the answer. */
const REQUEST_VARY = new Set(['origin', 'access-control-request-headers']);

/** `Vary` naming `first`, then what `more` names besides, each header once (names are case-insensitive). */
function varyWith(first: string, more: string | null): string {
  const names = first.split(',').map((name) => name.trim());
  const seen = new Set(names.map((name) => name.toLowerCase()));
  for (const name of more?.split(',') ?? []) {
    const trimmed = name.trim();
    if (trimmed === '' || seen.has(trimmed.toLowerCase())) continue;
    seen.add(trimmed.toLowerCase());
    names.push(trimmed);
  }
  return names.join(', ');
}

/** A stored answer's `Vary` without what CORS added for the request it was built for: each hit adds its own. */
export function answerVary(vary: string | null): string | null {
  if (vary === null) return null;
  const kept = vary
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !REQUEST_VARY.has(name.toLowerCase()));
  return kept.length === 0 ? null : kept.join(', ');
}

/** Seconds a GET answer may be reused: `maxAgeSeconds`, cut at the next midnight UTC. */
export function maxAge(at: Date, maxAgeSeconds: number): number {
  const midnight = Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate() + 1);
  return Math.max(0, Math.min(maxAgeSeconds, Math.ceil((midnight - at.getTime()) / 1000)));
}

/** If-None-Match uses weak comparison (RFC 9110 §13.1.2). */
export function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (ifNoneMatch === null) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}

/** Per document (Yoga's parser cache hands a repeated text the same one), then per operation name. */
const uncacheableOf = new WeakMap<DocumentNode, Map<string, boolean>>();

/** Whether the operation selects a root field whose answer is about the request (HTTP cache and response cache ask each request). */
export function selectsUncacheable(
  document: DocumentNode,
  operationName: string | null | undefined,
): boolean {
  let byOperation = uncacheableOf.get(document);
  if (byOperation === undefined) {
    byOperation = new Map();
    uncacheableOf.set(document, byOperation);
  }
  const name = operationName ?? '';
  let uncacheable = byOperation.get(name);
  if (uncacheable === undefined) {
    uncacheable = selectsUncacheableField(document, operationName);
    // Names are the client's to choose: only the names a document defines are kept.
    if (byOperation.size < document.definitions.length + 1) byOperation.set(name, uncacheable);
  }
  return uncacheable;
}

function selectsUncacheableField(
  document: DocumentNode,
  operationName: string | null | undefined,
): boolean {
  const operation = getOperationAST(document, operationName ?? undefined);
  if (operation == null) return false;
  const visit = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.some((selection) => {
      if (selection.kind === Kind.FIELD) return UNCACHEABLE_ROOT_FIELDS.has(selection.name.value);
      if (selection.kind === Kind.INLINE_FRAGMENT) return visit(selection.selectionSet, seen);
      if (seen.has(selection.name.value)) return false;
      seen.add(selection.name.value);
      const fragment = document.definitions.find(
        (definition) =>
          definition.kind === Kind.FRAGMENT_DEFINITION &&
          definition.name.value === selection.name.value,
      );
      return fragment?.kind === Kind.FRAGMENT_DEFINITION && visit(fragment.selectionSet, seen);
    });
  return visit(operation.selectionSet, new Set());
}
