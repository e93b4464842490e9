/**
 * The trace a log line belongs to, as pino `mixin` fields: a line written
 * while a request is traced carries its `traceId` and `spanId`, so logs and
 * traces join up in whatever shows them. Nothing is added with tracing off.
 */
import { isSpanContextValid, trace } from '@opentelemetry/api';

export function traceFields(): { traceId?: string; spanId?: string } {
  const spanContext = trace.getActiveSpan()?.spanContext();
  if (spanContext === undefined || !isSpanContextValid(spanContext)) return {};
  return { traceId: spanContext.traceId, spanId: spanContext.spanId };
}
