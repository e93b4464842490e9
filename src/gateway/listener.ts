/**
 * The node:http listener in front of Yoga, outside in: GraphiQL's page
 * (graphiql.ts: stored bytes in each encoding, so outside the compression
 * layer), whole answers written in one go and compressed for the clients
 * that accept it (compressed-responses.ts), the
 * paths the gateway serves (any other is refused before Yoga), and the
 * response cache's fast path, which answers a repeated operation from
 * stored bytes and hands every other request to Yoga with its server
 * context (server-context.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { HitSummaries } from '../server/answer-parts/hit-summaries.js';
import type { ReportedBudget } from '../server/answer-parts/reported-budget.js';
import { withGraphiQL } from '../server/graphiql/graphiql.js';
import {
  DEFAULT_COMPRESSION_MIN_BYTES,
  withWholeAnswers,
} from '../server/http/compressed-responses.js';
import { withServedPathsOnly } from '../server/http/graphql-path.js';
import type { MemoryBounds } from '../server/memory/memory-bounds.js';
import type { MissLane } from '../server/miss-lane/miss-lane.js';
import type { ClientRateLimiter } from '../server/plugins/use-client-rate-limit.js';
import { generationReport } from '../server/plugins/use-freshness-report.js';
import { withResponseCache } from '../server/response-cache/fast-path.js';
import type { ServerContext } from '../server/server-context.js';
import {
  DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS,
  DEFAULT_MAX_REQUEST_BYTES,
} from '../setting-defaults.js';
import { urlPath } from '../url-path.js';
import type { GatewayOptions } from './gateway-config.js';
import type { ReadPath } from './read-path.js';

export interface ListenerInputs {
  readonly options: GatewayOptions;
  readonly readPath: ReadPath;
  /** Yoga's own listener, with the server context it is given. */
  readonly yoga: (req: IncomingMessage, res: ServerResponse, context: ServerContext) => unknown;
  readonly rateLimiter: ClientRateLimiter | undefined;
  /** Misses of operations Yoga has run compiled, answered beside it; absent: Yoga answers every miss. */
  readonly lane: MissLane | undefined;
  readonly graphqlEndpoint: string;
  /** Paths answered beside the GraphQL endpoint (health, readiness, metrics). */
  readonly otherPaths: readonly string[];
  /** Turns at Yoga, request bodies and answer backlogs, bounded (memory-bounds.ts). */
  readonly bounds: MemoryBounds;
  /** The budget figures answers report, shared with Yoga's cost report. */
  readonly reportedBudget: ReportedBudget;
  /** Where response-cache hits are summed up in the log; absent: each hit has its own line. */
  readonly hitSummaries: HitSummaries | undefined;
}

export function gatewayListener({
  options,
  readPath,
  yoga,
  rateLimiter,
  lane,
  graphqlEndpoint,
  otherPaths,
  bounds,
  reportedBudget,
  hitSummaries,
}: ListenerInputs): (req: IncomingMessage, res: ServerResponse) => void {
  const { auth, stores, generation, observer } = readPath;
  const protection = options.protection ?? {};
  /** The smallest answer compressed for a client that accepts it; undefined: none is. */
  const compressFrom =
    options.compression === false
      ? undefined
      : (options.compression?.minBytes ?? DEFAULT_COMPRESSION_MIN_BYTES);
  const { turns } = bounds;
  const answering =
    options.answerCache === false
      ? (req: IncomingMessage, res: ServerResponse) => {
          // Health, readiness and metrics never wait for a turn; the endpoint's requests do.
          if (urlPath(req.url ?? '/') === graphqlEndpoint)
            void turns.inTurn(res, () => yoga(req, res, {}));
          else void yoga(req, res, {});
        }
      : withResponseCache((req, res, context) => yoga(req, res, context), {
          turns,
          bodies: bounds.bodies,
          graphqlEndpoint,
          cache: stores.answers,
          auth,
          keys: stores.keys,
          budget: reportedBudget,
          logger: options.logger,
          ...(hitSummaries === undefined
            ? {}
            : { hitLines: (operation) => hitSummaries.lineFor(operation) }),
          maxRequestBytes: protection.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES,
          maxTtlMs: options.cache.ttlMs,
          observer,
          httpCacheMaxAgeSeconds:
            protection.httpCacheMaxAgeSeconds ?? DEFAULT_HTTP_CACHE_MAX_AGE_SECONDS,
          // A new data generation is a new key, so no answer of an older one is served; answers read
          // before any poll belong to generation 0.
          generation: () => String(generation.now()?.id ?? 0),
          freshness: () => {
            const current = generation.now();
            return current === undefined ? undefined : generationReport(current);
          },
          ...(rateLimiter !== undefined ? { rateLimiter } : {}),
          ...(lane !== undefined ? { lane } : {}),
          ...(options.now ? { now: options.now } : {}),
          popularity: stores.popularity,
          ...(compressFrom === undefined ? {} : { compressFrom }),
        });
  const graphiql = options.graphiql !== false;
  const served = withServedPathsOnly(graphqlEndpoint, otherPaths, answering, options.logger, {
    rootToEndpoint: graphiql,
  });
  const whole = withWholeAnswers(served, {
    ...(compressFrom === undefined ? {} : { compressFrom }),
    backlog: bounds.answerBacklog,
    dropped: (req, bytes) =>
      options.logger.warn(
        { method: req.method, path: urlPath(req.url ?? '/'), behindBytes: bytes },
        'answer dropped: its client stopped reading, and slow clients hold all they may',
      ),
  });
  return !graphiql
    ? whole
    : withGraphiQL(whole, {
        endpoint: graphqlEndpoint,
        ...(options.exampleVariables === undefined
          ? {}
          : { exampleVariables: options.exampleVariables }),
        passThrough: auth.kind === 'pass-through',
        rateLimiter,
        logger: options.logger,
      });
}
