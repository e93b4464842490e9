/**
 * The OpenTelemetry SDK and the undici instrumentation, loaded only when the environment asks
 * for traces (tracing.ts): together they are the heaviest modules of the gateway to load, and a
 * process that exports no trace has no use for them.
 */
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { SERVICE_NAME } from '../service-name.js';

/** The instrumentations the gateway runs with: the upstream client's requests (undici). */
export function gatewayInstrumentations() {
  return [new UndiciInstrumentation()];
}

/** Starts the SDK with the gateway's instrumentations; the standard OTEL_* variables configure the rest. */
export function startSdk(env: NodeJS.ProcessEnv): { shutdown(): Promise<void> } {
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME?.trim() || SERVICE_NAME,
    instrumentations: gatewayInstrumentations(),
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
