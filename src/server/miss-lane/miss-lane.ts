/**
 * The miss lane: a response-cache miss of an operation Yoga has already run
 * compiled is run again here, beside Yoga, with what Yoga's plugins would do
 * to it done by the same functions they use.
 *
 * Why: a page that varies (another artist, the next cursor) is a miss over
 * records the gateway already holds, and Yoga's path (its Fetch-API
 * adapter, the plugin chain around each phase, its result processing) cost
 * more than executing the operation. The lane keeps what that path
 * decides, and skips only what it redoes for a document it has seen.
 *
 * What it answers, and only that, so that every other request keeps Yoga's
 * errors and behaviour: a JSON POST, or a GET, that asks for a query with
 * variables and an operation name (lane-params.ts); an operation Yoga ran compiled for the
 * same text (lane-plans.ts: every check on the document passed); an
 * `Accept` header Yoga has answered a regular result for; variables
 * graphql-js coerces; an estimate within the upstream cost limit; a key
 * the gateway has accepted, and the client's rate limit not reached, as
 * the fast path checks before calling it. Anything else is left before
 * anything ran, and Yoga answers.
 *
 * What a Yoga answer gets, it gets, in Yoga's order: settled reads, the
 * metrics, the cost and freshness reports, the response cache's record,
 * the key's verdict, Yoga's own error masking, and Yoga's own processing of
 * a regular result (status, media type, body); then CORS, and what the
 * HTTP caching plugin adds (`no-store`, or for a complete GET answer its
 * ETag, Cache-Control and Vary, and a 304 when If-None-Match matches), and
 * the request log line.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ExecutionResult, GraphQLError, GraphQLSchema } from 'graphql';
import { type FetchAPI, processRegularResult } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { GatewayMetrics } from '../../observability/metrics.js';
import type { GatewayContext } from '../../schema/context.js';
import { andThen, type MaybePromise } from '../../schema/maybe-promise.js';
import { corsHeaders } from '../answer-parts/cors.js';
import type { ReportedBudget } from '../answer-parts/reported-budget.js';
import { logRequest } from '../answer-parts/request-log.js';
import type { RequestHeaders } from '../caller.js';
import { sendWholeAnswer } from '../http/compressed-responses.js';
import { withKeyVerdict } from '../plugins/use-client-key-check.js';
import {
  type CompiledOperation,
  coercible,
  runCompiled,
} from '../plugins/use-compiled-execution.js';
import { withCostReport } from '../plugins/use-cost-report.js';
import { withFreshnessReport } from '../plugins/use-freshness-report.js';
import {
  completeData,
  type GetCaching,
  matches,
  notModifiedHeaders,
  selectsUncacheable,
} from '../plugins/use-http-caching.js';
import { settleReads } from '../plugins/use-settled-reads.js';
import { keepAnswer, recorded, reusingData } from '../response-cache/recorder.js';
import type { ResponseCacheSlot } from '../response-cache/slot.js';
import type { ContextSource } from '../server-context.js';
import { laneMetrics } from './lane-metrics.js';
import type { LaneParams } from './lane-params.js';
import { LanePlans } from './lane-plans.js';

export interface MissLaneOptions {
  readonly schema: GraphQLSchema;
  /** The context Yoga's requests get (gateway/request-context.ts). */
  readonly context: (source: ContextSource) => GatewayContext;
  readonly maxUpstreamCost: number;
  readonly reported: ReportedBudget;
  /** How a GET answer is made cacheable, as Yoga's HTTP caching plugin makes it. */
  readonly getCaching: GetCaching;
  /** Yoga's own masking of a result's errors, its logging of what it masks included. */
  readonly maskError: (error: GraphQLError, message: string) => Error;
  readonly metrics: GatewayMetrics;
  readonly logger: Logger;
  readonly graphqlEndpoint: string;
}

export interface MissLane {
  /**
   * The run of a miss the lane may answer, made without running anything (undefined: Yoga's to
   * answer). The run answers, and says true; false only when the compiled form refused variables
   * graphql-js took, before anything was read, so that Yoga answers it as graphql-js would.
   */
  prepare(
    req: IncomingMessage,
    res: ServerResponse,
    params: LaneParams,
    slot: ResponseCacheSlot,
    startedAt: number,
  ): (() => MaybePromise<boolean>) | undefined;
  /** Once Yoga has answered a lane-shaped request: what its answer teaches the lane. */
  learn(
    req: IncomingMessage,
    res: ServerResponse,
    params: LaneParams,
    slot: ResponseCacheSlot,
  ): void;
}

/** Yoga's message for an error it masks (its `maskedErrors.errorMessage` default). */
const MASKED_MESSAGE = 'Unexpected error.';

const REGULAR_MEDIA_TYPES = ['application/json', 'application/graphql-response+json'];

/** One miss the lane answers: what it was asked, and what it runs it with. */
interface LaneMiss {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly params: LaneParams;
  readonly slot: ResponseCacheSlot;
  readonly startedAt: number;
  readonly compiled: CompiledOperation;
  readonly context: GatewayContext;
  readonly mediaType: string;
}

export function missLane(options: MissLaneOptions): MissLane {
  const plans = new LanePlans();
  const executed = laneMetrics(options.metrics);

  const run = (miss: LaneMiss): MaybePromise<boolean> => {
    const { compiled, context, params } = miss;
    // Only keys the gateway has accepted reach the lane: its reads take that verdict.
    if (context.caller.mode === 'client') context.report.keyAccepted = true;
    const executeStartedAt = performance.now();
    return andThen(runCompiled(compiled, context, params.variables), (result) =>
      result === undefined
        ? false
        : andThen(
            andThen(settleReads(context), () => {
              executed(context, result, (performance.now() - executeStartedAt) / 1000);
              return withCostReport(result, context, options.reported);
            }),
            (reported) => {
              send(miss, reported);
              return true;
            },
          ),
    );
  };

  /** The rest of what Yoga's plugins do to a result, in their order, then the answer and its log line. */
  const send = (miss: LaneMiss, reported: ExecutionResult): void => {
    const { req, res, compiled, params, context, slot } = miss;
    let result = withFreshnessReport(reported, context);
    const operationName = params.operationName ?? compiled.operation.name?.value ?? null;
    const uncacheable = selectsUncacheable(compiled.document, operationName);
    if (slot.admitted === true && !uncacheable)
      result = recorded(slot, result, context, operationName) ?? result;
    result = withKeyVerdict(result, context);
    if (result.errors !== undefined)
      result = Object.assign({}, result, {
        errors: result.errors.map(
          (error) => options.maskError(error, MASKED_MESSAGE) as GraphQLError,
        ),
      });
    // A GET's ETag covers its data: encoded once, for the ETag and the body alike.
    const recordedData = slot.record?.data;
    const complete =
      req.method !== 'GET' || uncacheable ? undefined : (recordedData ?? completeData(result));
    if (complete !== undefined && recordedData === undefined)
      result = Object.assign({}, result, { stringify: reusingData(result.data, complete) });
    const { status, headers, body } = regularAnswer(result, miss.mediaType);
    Object.assign(headers, corsHeaders(req));
    if (complete === undefined || status !== 200) headers['cache-control'] = 'no-store';
    else {
      Object.assign(
        headers,
        options.getCaching.headers(headers['content-type'] ?? '', complete, headers.vary ?? null),
      );
      if (matches(req.headers['if-none-match'] ?? null, headers.etag ?? '')) {
        sendWholeAnswer(
          res,
          304,
          notModifiedHeaders((name) => headers[name]),
          [],
        );
        logged(miss, 304, operationName);
        return;
      }
    }
    sendWholeAnswer(res, status, headers, [body]);
    keepAnswer(slot, status, (name) => headers[name] ?? null);
    logged(miss, status, operationName);
  };

  /** The request log line, as Yoga's request log writes it. */
  const logged = (miss: LaneMiss, status: number, operationName: string | null): void => {
    const { report, caller } = miss.context;
    logRequest(options.logger, {
      method: miss.req.method,
      path: options.graphqlEndpoint,
      status,
      startedAt: miss.startedAt,
      operation: {
        name: operationName,
        keyId: caller.keyId,
        upstreamCalls: report.upstreamCalls,
        cacheHits: report.cacheHits,
        deduplicated: report.deduplicated,
        stale: report.stale.length,
      },
    });
  };

  return {
    prepare(req, res, params, slot, startedAt) {
      const mediaType = plans.mediaTypeFor(req.headers.accept);
      const compiled = plans.operationFor(params);
      if (mediaType === undefined || compiled === undefined) return undefined;
      if (!coercible(options.schema, compiled.operation, params.variables)) return undefined;
      let context: GatewayContext;
      try {
        context = options.context({ request: headersOf(req), params, req, res });
      } catch {
        return undefined;
      }
      if (context.spending.estimatedCalls > options.maxUpstreamCost) return undefined;
      return () => run({ req, res, params, slot, startedAt, compiled, context, mediaType });
    },
    learn(req, res, params, slot) {
      const compiled = slot.compiled;
      if (compiled === undefined || res.statusCode !== 200) return;
      const contentType = String(res.getHeader('content-type') ?? '');
      const mediaType = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
      if (!REGULAR_MEDIA_TYPES.includes(mediaType)) return;
      plans.learn(params, compiled, req.headers.accept, mediaType);
    },
  };
}

/** node:http's headers as a Fetch API Request's `headers.get` reads them. */
function headersOf(req: IncomingMessage): RequestHeaders {
  return {
    headers: {
      get(name: string) {
        const value = req.headers[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    },
  };
}

interface RegularAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
}

/** A Response as Yoga's result processor makes one: here, only what it was made with. */
class MadeResponse {
  constructor(
    readonly body: string | Buffer,
    readonly init: { status?: number; headers?: Record<string, string> },
  ) {}
}

const MADE_RESPONSES = { Response: MadeResponse } as unknown as FetchAPI;

/** Yoga's own processing of a regular result: its status, its headers (names in lower case), its body. */
function regularAnswer(result: ExecutionResult, mediaType: string): RegularAnswer {
  const made = processRegularResult(result, MADE_RESPONSES, mediaType) as unknown as MadeResponse;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(made.init.headers ?? {}))
    headers[name.toLowerCase()] = String(value);
  const body = typeof made.body === 'string' ? Buffer.from(made.body) : made.body;
  return { status: made.init.status ?? 200, headers, body };
}
