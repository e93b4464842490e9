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
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SERVICE_NAME } from '../service-name.js';

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

/** The instrumentations the gateway runs with: the upstream client's requests (undici). */
export function gatewayInstrumentations() {
  return [new UndiciInstrumentation()];
}

export interface Tracing {
  /** Flushes the spans still buffered and stops the exporter. */
  shutdown(): Promise<void>;
}

/** Starts the SDK when the environment asks for it; undefined (and nothing started) otherwise. */
export function startTracing(env: NodeJS.ProcessEnv = process.env): Tracing | undefined {
  if (!tracingRequested(env)) return undefined;
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || SERVICE_NAME,
    instrumentations: gatewayInstrumentations(),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
