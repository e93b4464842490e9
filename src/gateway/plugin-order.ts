/**
 * Yoga's plugins, in the order they must run. The order is the design:
 *
 * 0. The compiled executor before tracing: tracing wraps the executor it is
 *    handed in the request's trace context, so it must be handed this one.
 * 1. Tracing first, so that every later hook runs inside the request's span;
 *    the readiness check answers /ready before any GraphQL work.
 * 2. useSettledReads is the first of the hooks that read what a request
 *    cost: by then every read it started has settled; metrics count it.
 * 3. Cheap refusals before any work: who asks too often (rate limit), how
 *    big the body is, whether it can be read at all, how deeply it nests
 *    (before persisted operations, so a document too deep to parse is never
 *    registered), which document it names, its shape, that it is a query.
 * 4. The subscription limit, then @defer/@stream and the forms a streamed
 *    result may take (Apollo's multipart subscriptions, one JSON body for a
 *    JSON-only client, or ended at once when no form suits: its slot freed),
 *    then what shapes every answer: error codes, HTTP caching, the cost and
 *    freshness reports, the response cache's recorder.
 * 5. The client key check after the cost report: a rejected key's response
 *    is replaced whole, report included.
 * 6. Stream arguments and the upstream cost limit after both: a refused
 *    operation still gets its cost report (with the estimate), and never
 *    runs. The request log last, when the answer is known.
 */
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import type { YogaServerOptions } from 'graphql-yoga';
import type { KeyRegistry } from '../coordination/key-registry.js';
import type { GatewayMetrics } from '../observability/metrics.js';
import type { GatewayContext } from '../schema/context.js';
import type { ReportedBudget } from '../server/answer-parts/reported-budget.js';
import type { AuthMode } from '../server/caller.js';
import { useClientKeyCheck } from '../server/plugins/use-client-key-check.js';
import {
  type ClientRateLimiter,
  useClientRateLimit,
} from '../server/plugins/use-client-rate-limit.js';
import { useCompiledExecution } from '../server/plugins/use-compiled-execution.js';
import { useCostReport } from '../server/plugins/use-cost-report.js';
import { useFreshnessReport } from '../server/plugins/use-freshness-report.js';
import { type GetCaching, useHttpCaching } from '../server/plugins/use-http-caching.js';
import { useMetrics } from '../server/plugins/use-metrics.js';
import { useNegotiatedDelivery } from '../server/plugins/use-negotiated-delivery.js';
import { useNestingLimit } from '../server/plugins/use-nesting-limit.js';
import {
  type PersistedOperationsMode,
  usePersistedOperations,
} from '../server/plugins/use-persisted-operations.js';
import { useQueryOperationsOnly } from '../server/plugins/use-query-operations-only.js';
import { useReadiness } from '../server/plugins/use-readiness.js';
import { useRequestErrorCodes } from '../server/plugins/use-request-error-codes.js';
import { useRequestLog } from '../server/plugins/use-request-log.js';
import { useRequestReadErrors } from '../server/plugins/use-request-read-errors.js';
import { useRequestSizeLimit } from '../server/plugins/use-request-size-limit.js';
import { useSettledReads } from '../server/plugins/use-settled-reads.js';
import { useShapeLimits } from '../server/plugins/use-shape-limits.js';
import { useStreamArguments } from '../server/plugins/use-stream-arguments.js';
import { useSubscriptionLimit } from '../server/plugins/use-subscription-limit.js';
import { useUpstreamCostLimit } from '../server/plugins/use-upstream-cost-limit.js';
import { useResponseCacheRecorder } from '../server/response-cache/recorder.js';
import type { ServerContext } from '../server/server-context.js';
import { DEFAULT_UNKNOWN_KEYS_PER_MINUTE } from '../setting-defaults.js';
import type { GatewayOptions } from './gateway-config.js';
import type { Stores } from './stores.js';

export interface PluginInputs {
  readonly options: GatewayOptions;
  readonly auth: AuthMode;
  readonly stores: Stores;
  readonly metrics: GatewayMetrics;
  readonly keys: KeyRegistry;
  /** The budget figures answers report, shared with the response cache's hits. */
  readonly reportedBudget: ReportedBudget;
  /** How GET answers are made cacheable, shared with the miss lane. */
  readonly getCaching: GetCaching;
  /** The per-client rate limit in server-key mode; absent: none. */
  readonly rateLimiter: ClientRateLimiter | undefined;
  readonly persisted: {
    readonly mode: PersistedOperationsMode;
    readonly manifest: Readonly<Record<string, string>>;
  };
  readonly trustProxy: boolean;
  /** The body of /ready: whether this replica should be sent requests. */
  readinessReport(): { ready: boolean } & Record<string, unknown>;
  readonly readinessPath: string;
}

/** What createYoga takes: plugins typed by the context they read, at most a request's whole context. */
type GatewayPlugins = NonNullable<YogaServerOptions<ServerContext, GatewayContext>['plugins']>;

export function gatewayPlugins(inputs: PluginInputs): GatewayPlugins {
  const { options, auth, stores, metrics, keys, rateLimiter, persisted, trustProxy } = inputs;
  const protection = options.protection ?? {};
  return [
    useCompiledExecution(),
    ...(options.tracing ?? []),
    useReadiness({ endpoint: inputs.readinessPath, report: inputs.readinessReport }),
    useSettledReads(),
    ...useMetrics(metrics),
    ...(rateLimiter !== undefined ? [useClientRateLimit(rateLimiter)] : []),
    useRequestSizeLimit({ maxBytes: protection.maxRequestBytes }),
    useRequestReadErrors(),
    useNestingLimit(protection.shape?.maxNesting),
    usePersistedOperations(persisted),
    ...useShapeLimits(protection.shape),
    useQueryOperationsOnly(),
    useSubscriptionLimit({ perClient: protection.subscriptionsPerClient, trustProxy, metrics }),
    useDeferStream(),
    useNegotiatedDelivery(),
    useRequestErrorCodes(),
    useHttpCaching(inputs.getCaching),
    useCostReport(inputs.reportedBudget),
    useFreshnessReport(),
    useResponseCacheRecorder(),
    useClientKeyCheck({
      keys,
      ...(auth.kind === 'pass-through'
        ? {
            unknownKeys: stores.rateLimiter({
              requests: options.unknownKeysPerMinute ?? DEFAULT_UNKNOWN_KEYS_PER_MINUTE,
              windowSeconds: 60,
              trustProxy,
              keyPrefix: 'new-keys',
            }),
          }
        : {}),
    }),
    useStreamArguments(),
    useUpstreamCostLimit({ maxCost: protection.maxUpstreamCost }),
    useRequestLog(options.logger),
  ];
}
