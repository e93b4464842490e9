/**
 * OpenTelemetry tracing, off unless the operator asks for it with the
 * standard variables: OTEL_EXPORTER_OTLP_ENDPOINT (or
 * OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) for an OTLP collector, or
 * OTEL_TRACES_EXPORTER (`otlp`, `console`, `zipkin`). Everything else
 * (service name, sampler, propagators, resource attributes) follows the
 * SDK's own OTEL_* variables. Spans come from the Yoga plugin (use-tracing.ts),
 * the upstream read spans (read-span.ts) and the undici instrumentation,
 * which also writes the W3C `traceparent` on every upstream request.
 */

/** True when the environment asks for traces to be exported. */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter === 'none') return false;
  return Boolean(
    exporter ||
      env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() ||
      env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim(),
  );
}

export interface Tracing {
  /** Flushes the spans still buffered and stops the exporter. */
  shutdown(): Promise<void>;
}

/**
 * Starts the SDK when the environment asks for it; undefined (and nothing started, nor loaded)
 * otherwise. The SDK is imported here, not at the top: a process that exports no trace should not
 * spend its start loading it (tracing-sdk.ts).
 */
export async function startTracing(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing | undefined> {
  if (!tracingRequested(env)) return undefined;
  const { startSdk } = await import('./tracing-sdk.js');
  return startSdk(env);
}
