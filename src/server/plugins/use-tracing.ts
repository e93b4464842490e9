/**
 * Traces of GraphQL requests (see observability/tracing.ts for when they are
 * on). Each HTTP request gets a server span that continues the client's W3C
 * `traceparent` when it sends one, and everything the request does runs in
 * its context: the operation and resolver spans of @envelop/opentelemetry,
 * the upstream read spans, the undici spans of upstream requests (which
 * carry the trace on to the upstream), and the log lines, which carry its
 * trace id.
 */
import { useOpenTelemetry } from '@envelop/opentelemetry';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Plugin } from 'graphql-yoga';
import { SERVICE_NAME } from '../../service-name.js';

const headerGetter = {
  get: (headers: Headers, key: string) => headers.get(key) ?? undefined,
  keys: (headers: Headers) => [...headers.keys()],
};

export function useTracing(): Plugin[] {
  const tracer = trace.getTracer(SERVICE_NAME);
  return [
    {
      instrumentation: {
        request({ request }, wrapped) {
          const parent = propagation.extract(context.active(), request.headers, headerGetter);
          const { pathname } = new URL(request.url);
          return tracer.startActiveSpan(
            `${request.method} ${pathname}`,
            {
              kind: SpanKind.SERVER,
              attributes: { 'http.request.method': request.method, 'url.path': pathname },
            },
            parent,
            async (span) => {
              try {
                await wrapped();
              } catch (error) {
                span.setStatus({ code: SpanStatusCode.ERROR });
                throw error;
              } finally {
                span.end();
              }
            },
          );
        },
      },
      onResponse({ response }) {
        trace.getActiveSpan()?.setAttribute('http.response.status_code', response.status);
      },
    },
    // Resolvers with a resolve function of their own only: plain property reads would drown the trace.
    useOpenTelemetry(
      { resolvers: true, defaultResolvers: false, variables: false, result: false },
      trace.getTracerProvider(),
      SpanKind.INTERNAL,
      {},
      SERVICE_NAME,
    ) as Plugin,
  ];
}
