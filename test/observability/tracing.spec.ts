/**
 * A traced nested query, exported to memory: the client's `traceparent` is
 * continued, the span tree runs request → operation → resolvers and
 * upstream reads → HTTP requests, the cache decisions are events of the read
 * spans, the simulator receives each HTTP span as its parent, and log lines
 * carry the trace id.
 */
import { request as httpRequest } from 'node:http';
import { Writable } from 'node:stream';
import { trace } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  NodeTracerProvider,
  type ReadableSpan,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-node';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { traceFields } from '../../src/observability/log-trace.js';
import { tracingRequested } from '../../src/observability/tracing.js';
import { gatewayInstrumentations } from '../../src/observability/tracing-sdk.js';
import { useTracing } from '../../src/server/plugins/use-tracing.js';
import { type Stack, startStack } from '../support/stack.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const instrumentations = gatewayInstrumentations();
const logLines: Record<string, unknown>[] = [];
const logStream = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n'))
      if (line !== '') logLines.push(JSON.parse(line) as Record<string, unknown>);
    done();
  },
});

let stack: Stack;
beforeAll(async () => {
  provider.register();
  for (const instrumentation of instrumentations) instrumentation.setTracerProvider(provider);
  stack = await startStack({
    gateway: {
      tracing: useTracing(),
      logger: pino({ level: 'info', mixin: traceFields }, logStream),
    },
  });
});
afterAll(async () => {
  await stack.close();
  for (const instrumentation of instrumentations) instrumentation.disable();
  await provider.shutdown();
  trace.disable();
});

const CLIENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN = '00f067aa0ba902b7';

/** POSTs with node:http, so that the client request itself is not an (instrumented) undici span. */
function post(
  url: string,
  body: unknown,
  headers: Record<string, string>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', headers: { 'content-type': 'application/json', ...headers } },
      (response) => {
        let text = '';
        response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(JSON.stringify(body));
  });
}

const children = (spans: readonly ReadableSpan[], parent: ReadableSpan) =>
  spans.filter((span) => span.parentSpanContext?.spanId === parent.spanContext().spanId);

describe('tracing', () => {
  it('is off unless the standard variables ask for it', () => {
    expect(tracingRequested({})).toBe(false);
    expect(
      tracingRequested({
        OTEL_TRACES_EXPORTER: 'none',
        OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
      }),
    ).toBe(false);
    expect(tracingRequested({ OTEL_TRACES_EXPORTER: 'console' })).toBe(true);
    expect(tracingRequested({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' })).toBe(true);
  });

  it('continues the client trace through the operation and resolvers to the upstream', async () => {
    const { slug } = stack.simulator.data.allArtists()[0]!;
    const query =
      'query Card($slug: String!) { artist(slug: $slug) { name history { date } milestones { threshold } } }';
    const response = await post(
      `${stack.url}/graphql`,
      { query, variables: { slug } },
      { traceparent: `00-${CLIENT_TRACE}-${CLIENT_SPAN}-01` },
    );
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).not.toHaveProperty('errors');

    const spans = exporter
      .getFinishedSpans()
      .filter((span) => span.spanContext().traceId === CLIENT_TRACE);
    const root = spans.find((span) => span.parentSpanContext?.spanId === CLIENT_SPAN);
    expect(root?.name).toBe('POST /graphql');

    const operation = children(spans, root!).find((span) => span.name === 'query.Card');
    expect(operation).toBeDefined();
    const underOperation = children(spans, operation!).map((span) => span.name);
    expect(underOperation).toEqual(
      expect.arrayContaining(['Query.artist', 'Artist.history', 'Artist.milestones']),
    );
    const reads = children(spans, operation!).filter((span) => span.name.startsWith('upstream '));
    expect(reads.map((span) => span.name).sort()).toEqual(
      ['upstream artist', 'upstream artist history', 'upstream milestone timeline'].sort(),
    );

    // Each read missed the cache and made one HTTP request, whose span the simulator received as parent.
    const calls = stack.simulator.calls;
    expect(calls).toHaveLength(3);
    for (const read of reads) {
      // A miss, then a miss again under the single-flight lease (another replica may have stored it).
      expect(new Set(read.events.map((event) => event.name))).toEqual(new Set(['cache miss']));
      const [http] = children(spans, read);
      expect(http?.name).toBe('GET');
      const traceparent = `00-${CLIENT_TRACE}-${http!.spanContext().spanId}-01`;
      expect(calls.filter((call) => call.traceparent === traceparent)).toHaveLength(1);
    }

    // The request's log line is part of the trace.
    const logged = logLines.find((line) => line.msg === 'request' && line.operation === 'Card');
    expect(logged).toMatchObject({ traceId: CLIENT_TRACE });
  });

  it('marks a cache hit on the read span, with no HTTP request under it', async () => {
    exporter.reset();
    const callsBefore = stack.upstreamCalls();
    const { slug } = stack.simulator.data.allArtists()[0]!;
    await post(
      `${stack.url}/graphql`,
      {
        query: 'query Again($slug: String!) { artist(slug: $slug) { name } }',
        variables: { slug },
      },
      {},
    );
    expect(stack.upstreamCalls()).toBe(callsBefore);
    const spans = exporter.getFinishedSpans();
    const read = spans.find((span) => span.name === 'upstream artist');
    expect(read?.events.map((event) => event.name)).toEqual(['cache hit']);
    expect(children(spans, read!)).toEqual([]);
    // Without a client traceparent the gateway starts a trace of its own.
    const root = spans.find((span) => span.name === 'POST /graphql');
    expect(root?.parentSpanContext).toBeUndefined();
    expect(read?.spanContext().traceId).toBe(root?.spanContext().traceId);
  });
});
