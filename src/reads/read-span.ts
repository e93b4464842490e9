/**
 * One span per upstream read a request makes (`upstream <resource>`): the
 * cache, single-flight and stale decisions are its events (trace-observer.ts)
 * and the HTTP request, when one is sent, is its child. Made only where traces
 * are exported (read-path.ts `traced`): a span that records nothing still costs
 * its objects on every read.
 */
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { SERVICE_NAME } from '../service-name.js';

/** The span of a read answered at once from what this process holds: it ends where it starts. */
export function heldReadSpan<T>(resource: string, answer: () => T): T {
  return trace
    .getTracer(SERVICE_NAME)
    .startActiveSpan(
      `upstream ${resource}`,
      { attributes: { 'upstream.resource': resource } },
      (span) => {
        try {
          return answer();
        } finally {
          span.end();
        }
      },
    );
}

export function readSpan<T>(resource: string, read: () => Promise<T>): Promise<T> {
  return trace
    .getTracer(SERVICE_NAME)
    .startActiveSpan(
      `upstream ${resource}`,
      { attributes: { 'upstream.resource': resource } },
      async (span) => {
        try {
          return await read();
        } catch (error) {
          span.setStatus({
            code: SpanStatusCode.ERROR,
            message: error instanceof Error ? error.message : String(error),
          });
          throw error;
        } finally {
          span.end();
        }
      },
    );
}
