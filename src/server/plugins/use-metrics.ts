/**
 * `/metrics` in Prometheus text format: the GraphQL phase histograms of
 * @graphql-yoga/plugin-prometheus and the gateway's own figures
 * (observability/metrics.ts), from one registry. Operation names are left
 * out of the labels: clients choose them, and every new name would be a new
 * series.
 */
import { usePrometheus } from '@graphql-yoga/plugin-prometheus';
import type { Plugin } from 'graphql-yoga';
import { type GatewayMetrics, keyLabelOf } from '../../observability/metrics.js';
import type { Caller } from '../../reads/caller.js';
import type { GatewayContext } from '../../schema/context.js';

export const METRICS_PATH = '/metrics';

/** Who spent: the client's hashed identity where the caller has one (server-key mode), else its key's. */
export function clientLabelOf(caller: Caller & { readonly clientId?: string }): string {
  return keyLabelOf(caller.clientId ?? caller.keyId);
}

export function useMetrics(metrics: GatewayMetrics): [Plugin, Plugin<GatewayContext>] {
  return [
    usePrometheus({
      registry: metrics.registry,
      endpoint: METRICS_PATH,
      labels: { operationName: false, url: false },
      // The schema has no deprecated fields and never changes at run time. The HTTP histogram of
      // 6.10 reads the operation of a document that failed to parse, turning a syntax error into
      // INTERNAL_SERVER_ERROR; graphql_envelop_request_duration times requests instead. The
      // summary's quantiles are one process's: a group's /metrics would add its workers' up,
      // where the duration histogram's buckets add up and give any quantile.
      metrics: {
        graphql_envelop_deprecated_field: false,
        graphql_envelop_schema_change: false,
        graphql_yoga_http_duration: false,
        graphql_envelop_request_time_summary: false,
      },
    }),
    {
      onExecute() {
        return {
          onExecuteDone({ args }) {
            const { caller, report } = args.contextValue;
            metrics.budgetSpent(caller.keyId, clientLabelOf(caller), report.upstreamCalls);
          },
        };
      },
    },
  ];
}
