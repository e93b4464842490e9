/**
 * The response cache's hot path, in front of Yoga on the node:http listener.
 *
 * Why here and not as a Yoga plugin: a hit must do about what a bare Node
 * server does. Measured on the one-artist query, Yoga's Fetch-API adapter
 * (Request/Response objects, header copies, stream plumbing) costs more per
 * request than parsing, validating and executing the two fields; a plugin's
 * early answer still pays all of it. So a repeated operation is recognised
 * from the raw request (method, URL or body bytes, Accept, data generation)
 * and answered from stored bytes; everything else, and every miss, goes to
 * Yoga unchanged (a POST body already read is handed over as `req.body`).
 * A miss's answer is stored from the second miss of its key on (MISSED_KEYS_KEPT).
 *
 * What a hit still does, as every answer must, through the same functions
 * Yoga's plugins use (answer-parts/, use-client-rate-limit.ts, use-http-caching.ts):
 * the per-client rate limit, the client key check in pass-through mode (only
 * a key the upstream has accepted is answered from the cache; any other goes
 * to Yoga, which checks it), CORS, the cost report (`responseCache: "hit"`,
 * 0 upstream calls, the estimate its miss made, the key's budget), ETag/304
 * and Cache-Control for GET, and the request log (a line, or a count in a
 * summary: hit-summaries.ts).
 */
import { isUtf8 } from 'node:buffer';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { LRUCache } from 'lru-cache';
import type { Logger } from 'pino';
import type { ResponseCache } from '../../cache/cache.js';
import { type KeyRegistry, keyIdOf } from '../../coordination/key-registry.js';
import type { BudgetUsage } from '../../economy/ledger.js';
import type { Popularity } from '../../economy/popularity.js';
import { bodyNotUtf8, overloaded } from '../../http-errors.js';
import { andThen, type MaybePromise } from '../../schema/maybe-promise.js';
import type { UpstreamObserver } from '../../upstream/observer.js';
import { urlPath } from '../../url-path.js';
import { corsHeaders } from '../answer-parts/cors.js';
import type { HitLine } from '../answer-parts/hit-summaries.js';
import type { ReportedBudget } from '../answer-parts/reported-budget.js';
import { type LoggedOperation, operationLog } from '../answer-parts/request-log.js';
import { type AuthMode, bearerKey } from '../caller.js';
import { sendWholeAnswer } from '../http/compressed-responses.js';
import { refuse } from '../http/listener-refusal.js';
import type { RequestBodies } from '../memory/request-bodies.js';
import type { RequestTurns } from '../memory/request-turns.js';
import { type LaneParams, laneGetParams, laneParams } from '../miss-lane/lane-params.js';
import type { MissLane } from '../miss-lane/miss-lane.js';
import {
  type ClientRateLimiter,
  requestRateLimitRefusal,
} from '../plugins/use-client-rate-limit.js';
import { matches, maxAge } from '../plugins/use-http-caching.js';
import { acceptsGzip, compressedPart, gzipWithTail } from './gzip-answer.js';
import { hitTails } from './hit-tail.js';
import { isJsonMediaType } from './json-media-type.js';
import { responseKeys } from './response-keys.js';
import type { ResponseCacheSlot } from './slot.js';
import {
  entryOf,
  gzippedFrom,
  type StoredEntry,
  servable,
  storedPart,
  weighed,
} from './stored-response.js';

type NodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  context: { responseCacheSlot: ResponseCacheSlot },
) => unknown;

export interface ResponseCacheOptions {
  readonly cache: ResponseCache;
  readonly auth: AuthMode;
  readonly keys: KeyRegistry;
  /** The key's figures a hit reports, a second old at most (reported-budget.ts). */
  readonly budget: ReportedBudget;
  readonly logger: Logger;
  /** The log line of one stored answer's hits for one key; absent: a line for each hit. */
  readonly hitLines?: (operation: LoggedOperation) => HitLine;
  /** Bodies larger than this are Yoga's to refuse; the fast path leaves them alone. */
  readonly maxRequestBytes: number;
  /** Longest life of a stored answer, whatever its upstream answers say. */
  readonly maxTtlMs: number;
  readonly httpCacheMaxAgeSeconds: number;
  readonly rateLimiter?: ClientRateLimiter;
  /** The upstream's data generation: answers of an older one are never served. */
  readonly generation?: () => string;
  /** `extensions.freshness` of a hit (the generation and when it was seen); undefined: none. */
  readonly freshness?: () => object | undefined;
  readonly now?: () => Date;
  readonly graphqlEndpoint?: string;
  /** Told of every lookup, for the response cache's hit ratio in /metrics. */
  readonly observer?: UpstreamObserver;
  /** A hit is a view of the records it was built from: the plan's popularity counts them. */
  readonly popularity?: Pick<Popularity, 'record'>;
  /** Hits of this many bytes or more go out in gzip to clients that accept it; absent: never. */
  readonly compressFrom?: number;
  /** Runs misses of operations Yoga has run compiled (miss-lane/); absent: every miss goes to Yoga. */
  readonly lane?: MissLane;
  /** Turns at Yoga: a miss waits for one (request-turns.ts). */
  readonly turns: RequestTurns;
  /** The bound on request bodies held, which the bodies read here count against. */
  readonly bodies: RequestBodies;
}

/** How soon a request refused for the bodies the process holds may try again. */
const OVERLOADED_RETRY_SECONDS = 1;

/**
 * Authorization headers whose key ids are kept: reading the key out of the header and hashing
 * it again on every hit cost as much as the lookup.
 */
const KEY_IDS_KEPT = 1_000;
/** Longer headers are read afresh each time: a bearer key is at most 512 characters. */
const LONGEST_HEADER_KEPT = 600;

/**
 * Keys of missed answers remembered, for admission: an answer is stored only once its key has
 * been missed before (cache on second request, as CDNs do). A page asked once (one user's own
 * query, a body that differs every time) costs its building again if it ever comes back, and
 * no upstream call: storing every such answer instead pushed out the ones asked again, and
 * each stored one lived long enough to be collected at a major GC's price.
 */
const MISSED_KEYS_KEPT = 10_000;

export function withResponseCache(yoga: NodeHandler, options: ResponseCacheOptions) {
  const endpoint = options.graphqlEndpoint ?? '/graphql';
  const now = options.now ?? (() => new Date());
  const tails = hitTails(
    options.hitLines ?? ((operation) => operationLog(options.logger, operation)),
  );
  const keyOf = responseKeys();
  /** Key ids by the Authorization header as sent; null for a header that names no key. */
  const keyIds = new Map<string, string | null>();
  /** How many times each recently missed key was missed, up to 2 (admission, see MISSED_KEYS_KEPT). */
  const missed = new LRUCache<string, 1 | 2>({ max: MISSED_KEYS_KEPT });
  /** The freshness report's JSON, made again only when the generation changes. */
  let freshness: { generation: string; json: string } | undefined;
  const freshnessJson = (generation: string): string => {
    if (freshness?.generation !== generation) {
      const report = options.freshness?.();
      freshness = { generation, json: report === undefined ? '' : JSON.stringify(report) };
    }
    return freshness.json;
  };

  const serverKeyId = options.auth.kind === 'server' ? keyIdOf(options.auth.apiKey) : undefined;
  /** The id of the client's own key (pass-through mode); undefined when it sent none. */
  const clientKeyIdOf = (req: IncomingMessage): string | undefined => {
    const header = req.headers.authorization;
    if (header === undefined) return undefined;
    let keyId = keyIds.get(header);
    if (keyId === undefined) {
      const apiKey = bearerKey(header);
      keyId = apiKey === undefined ? null : keyIdOf(apiKey);
      if (header.length <= LONGEST_HEADER_KEPT) {
        if (keyIds.size >= KEY_IDS_KEPT) keyIds.clear();
        keyIds.set(header, keyId);
      }
    }
    return keyId ?? undefined;
  };

  /**
   * The key whose budget a hit reports, when the request may be answered from the cache at all
   * (null when it may not); without a promise when this process alone can tell.
   */
  const keyIdFor = (req: IncomingMessage): MaybePromise<string | null> => {
    if (serverKeyId !== undefined) return serverKeyId;
    const keyId = clientKeyIdOf(req);
    if (keyId === undefined) return null;
    const known = options.keys.statusNow?.(keyId);
    if (known !== undefined) return known === 'accepted' ? keyId : null;
    return options.keys.status(keyId).then((status) => (status === 'accepted' ? keyId : null));
  };

  /** Counts this request against the client's rate limit: whether it must go to Yoga to be refused. */
  const rateLimited = async (req: IncomingMessage): Promise<boolean> =>
    options.rateLimiter !== undefined &&
    (await requestRateLimitRefusal(options.rateLimiter, req)) !== null;

  const serve = (lookup: Lookup, entry: StoredEntry, keyId: string, budget: BudgetUsage): void => {
    const { req, res, key, started, generation } = lookup;
    const stored = entry.value;
    if (stored.reads !== undefined && stored.reads.length > 0)
      options.popularity?.record(stored.reads);
    const { tail, log: logLine } = tails(stored, keyId, budget, freshnessJson(generation));
    const headers: Record<string, string> = {
      'content-type': stored.contentType,
      ...corsHeaders(req),
    };
    if (req.method === 'GET' && stored.etag !== null && stored.cacheScope !== null) {
      headers.etag = stored.etag;
      headers['cache-control'] =
        `${stored.cacheScope}, max-age=${maxAge(now(), options.httpCacheMaxAgeSeconds)}`;
      if (stored.vary !== null)
        headers.vary = headers.vary === undefined ? stored.vary : `${stored.vary}, ${headers.vary}`;
      if (matches(req.headers['if-none-match'] ?? null, stored.etag)) {
        sendWholeAnswer(res, 304, headers, []);
        logLine({ method: req.method, path: endpoint, status: 304, startedAt: started });
        return;
      }
    } else {
      headers['cache-control'] = 'no-store';
    }
    // The stored data is written as the bytes it already is, the extensions as made for this key.
    const part = storedPart(stored);
    let body: readonly Buffer[] = [...part, tail];
    if (gzippedFrom(stored, options.compressFrom) && acceptsGzip(req)) {
      // The stored part compressed once, by its first gzip hit, each hit's tail appended
      // (gzip-answer.ts); the listener's compression leaves an answer that has its encoding.
      const first = compressedPart(stored) === undefined;
      body = gzipWithTail(stored, part, tail);
      if (first) options.cache.reweigh?.(key, weighed(entry));
      headers['content-encoding'] = 'gzip';
    }
    sendWholeAnswer(res, 200, headers, body);
    logLine({ method: req.method, path: endpoint, status: 200, startedAt: started });
  };

  const store = (key: string, slot: ResponseCacheSlot): void => {
    const { response, freshUntil } = slot;
    // Missed once only, so far: maybe never asked again (requests for it meanwhile count).
    if (response === undefined || freshUntil === undefined || missed.peek(key) !== 2) return;
    missed.delete(key);
    const stamp = Date.now();
    const until = Math.min(freshUntil, stamp + options.maxTtlMs);
    if (until <= stamp) return;
    void options.cache.set(key, entryOf(response, until, stamp));
  };

  /** Answers from the cache, once a held or looked-up entry and the key are known: whether it did. */
  const answerWith = (
    lookup: Lookup,
    entry: StoredEntry | undefined,
    keyId: string | null,
    observeMiss: boolean,
  ): MaybePromise<boolean> => {
    if (entry !== undefined || observeMiss)
      options.observer?.cacheLookup('response', entry !== undefined);
    if (entry === undefined || keyId === null) return false;
    if (options.rateLimiter === undefined) return sendHit(lookup, entry, keyId);
    return rateLimited(lookup.req).then((limited) =>
      limited ? false : sendHit(lookup, entry, keyId),
    );
  };

  /** Serves a hit with its key's figures: at once when this process read them recently. */
  const sendHit = (lookup: Lookup, entry: StoredEntry, keyId: string): MaybePromise<true> => {
    const budget = options.budget.recent(keyId);
    if (budget instanceof Promise)
      return budget.then((recent) => {
        serve(lookup, entry, keyId, recent);
        return true;
      });
    serve(lookup, entry, keyId, budget);
    return true;
  };

  /**
   * Answers from the cache when it holds the answer: whether it did. A hit this process can
   * tell by itself (an answer held in memory, the key's status known here) is answered
   * without a promise, and without a function made for it: a hit does little else, so the
   * promises of stores that had nothing to wait for, and the closures of each request, were a
   * large share of its cost.
   */
  const answered = (lookup: Lookup, observeMiss: boolean): MaybePromise<boolean> => {
    const { req, key } = lookup;
    const held = options.cache.peek?.(key);
    if (held !== undefined) {
      const keyId = keyIdFor(req);
      if (!(keyId instanceof Promise)) {
        options.cache.peeked?.(key);
        return answerWith(lookup, servable(held), keyId, observeMiss);
      }
      return Promise.all([options.cache.get(key), keyId]).then(([entry, keyId]) =>
        answerWith(lookup, servable(entry), keyId, observeMiss),
      );
    }
    // The key's status only once there is an answer to serve: asking it for a miss would cost
    // a new key's first request a round trip to the shared registry for nothing.
    return options.cache.get(key).then((entry) => {
      const answer = servable(entry);
      if (answer === undefined) return answerWith(lookup, undefined, null, observeMiss);
      return andThen(keyIdFor(req), (keyId) => answerWith(lookup, answer, keyId, observeMiss));
    });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const started = performance.now();
    const slot: ResponseCacheSlot = {};
    const url = req.url ?? '/';
    const path = urlPath(url);
    let source: Buffer | string | undefined;
    // A GET names its operation in the query that follows the path.
    if (path === endpoint && req.method === 'GET' && path.length < url.length) {
      source = url;
    } else if (
      path === endpoint &&
      req.method === 'POST' &&
      isJsonMediaType(req.headers['content-type'])
    ) {
      const length = Number(req.headers['content-length']);
      if (Number.isSafeInteger(length) && length > 0 && length <= options.maxRequestBytes) {
        const read = await options.bodies.read(req, res, length);
        if (read.kind === 'gone') return;
        if (read.kind === 'overloaded') {
          refuse(res, overloaded(OVERLOADED_RETRY_SECONDS));
          return;
        }
        source = read.body;
      }
    }
    if (source === undefined) {
      // Health, readiness and metrics never wait for a turn; the endpoint's requests do.
      if (path === endpoint)
        await options.turns.inTurn(res, () => yoga(req, res, { responseCacheSlot: slot }));
      else await yoga(req, res, { responseCacheSlot: slot });
      return;
    }

    const generation = options.generation?.() ?? '';
    const key = keyOf(
      { method: req.method ?? 'GET', source, accept: String(req.headers.accept ?? ''), generation },
      isUtf8,
    );
    if (key === undefined) {
      refuse(res, bodyNotUtf8());
      return;
    }
    const lookup: Lookup = { req, res, key, started, generation };
    const first = answered(lookup, false);
    if (first === true || (first !== false && (await first))) return;
    // A miss goes on to Yoga: @whatwg-node/server reads a body already consumed from here
    // instead of the stream. A hit leaves the request's shape as node:http made it.
    if (Buffer.isBuffer(source)) (req as IncomingMessage & { body?: Buffer }).body = source;
    // A miss takes its turn at Yoga; one that waited looks again: a request before it may have
    // stored the same answer meanwhile (a thousand clients asking for one page at once).
    const misses = missed.has(key) ? 2 : 1;
    missed.set(key, misses);
    slot.admitted = misses === 2;
    const turn = await options.turns.take(res);
    if (turn === 'left') return;
    if (turn === 'waited') {
      if (await answered(lookup, true)) return;
    } else options.observer?.cacheLookup('response', false);
    res.once('finish', () => store(key, slot));
    const lane = options.lane;
    const params =
      lane === undefined
        ? undefined
        : Buffer.isBuffer(source)
          ? laneParams(source)
          : laneGetParams(source);
    if (lane !== undefined && params !== undefined) {
      if (await onLane(lane, req, res, params, slot, started)) return;
      // Once Yoga's answer is out, its status and media type say what the lane may learn from it.
      res.once('finish', () => lane.learn(req, res, params, slot));
    }
    await yoga(req, res, { responseCacheSlot: slot });
  };

  /** Runs a miss on the lane when it may, the client's key and rate limit checked as for a hit. */
  const onLane = async (
    lane: MissLane,
    req: IncomingMessage,
    res: ServerResponse,
    params: LaneParams,
    slot: ResponseCacheSlot,
    started: number,
  ): Promise<boolean> => {
    const run = lane.prepare(req, res, params, slot, started);
    if (run === undefined) return false;
    const keyId = keyIdFor(req);
    if ((keyId instanceof Promise ? await keyId : keyId) === null) return false;
    if (options.rateLimiter !== undefined && (await rateLimited(req))) return false;
    return run();
  };

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((error: unknown) => {
      options.logger.error({ err: error }, 'response cache: request failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end();
    });
  };
}

/** A request the cache is asked for, and what its answer depends on. */
interface Lookup {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly key: string;
  /** performance.now() when the request arrived. */
  readonly started: number;
  /** The data generation the key was made for. */
  readonly generation: string;
}
