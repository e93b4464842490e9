/**
 * The miss lane's answers in @graphql-yoga/plugin-prometheus's series, as
 * that plugin counts an operation Yoga executes: the execute phase, the
 * request's duration and count, and each error by its path. The lane parses,
 * validates and builds no context as Yoga does, so those phases see nothing
 * of it. The series are the plugin's own, read from the registry once the
 * plugin has made them; the budget spent is counted as use-metrics.ts does.
 */
import type { ExecutionResult } from 'graphql';
import type { Counter, Histogram } from 'prom-client';
import type { GatewayMetrics } from '../../observability/metrics.js';
import type { GatewayContext } from '../../schema/context.js';
import { clientLabelOf } from '../plugins/use-metrics.js';

const QUERY = { operationType: 'query' } as const;

interface Series {
  readonly execute?: Histogram;
  readonly duration?: Histogram;
  readonly requests?: Counter;
  readonly errors?: Counter;
}

export function laneMetrics(metrics: GatewayMetrics) {
  let series: Series | undefined;
  const seriesNow = (): Series => {
    const named = <T>(name: string) => metrics.registry.getSingleMetric(name) as T | undefined;
    series ??= {
      execute: named<Histogram>('graphql_envelop_phase_execute'),
      duration: named<Histogram>('graphql_envelop_request_duration'),
      requests: named<Counter>('graphql_envelop_request'),
      errors: named<Counter>('graphql_envelop_error_result'),
    };
    return series;
  };

  /** One query the lane executed, in `seconds`, with the result as execution left it (before masking). */
  return (context: GatewayContext, result: ExecutionResult, seconds: number): void => {
    const { execute, duration, requests, errors } = seriesNow();
    execute?.observe(QUERY, seconds);
    duration?.observe(QUERY, seconds);
    requests?.inc(QUERY);
    for (const error of result.errors ?? [])
      errors?.inc(
        Object.assign(
          {},
          QUERY,
          { phase: 'execute' },
          error.path === undefined ? {} : { path: error.path.join('.') },
        ),
      );
    const { caller, report } = context;
    metrics.budgetSpent(caller.keyId, clientLabelOf(caller), report.upstreamCalls);
  };
}
