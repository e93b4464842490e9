/**
 * Malformed upstream answers: each becomes an error at the field that needed
 * it (the sibling still resolves), never a crash, never the upstream's text
 * or URL in the answer.
 */
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import type { Fault } from '../../src/simulator/index.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: {
      retries: 0,
      client: {
        connectTimeoutMs: 1_000,
        headersTimeoutMs: 2_000,
        bodyTimeoutMs: 2_000,
        maxConcurrency: 8,
        maxQueue: 100,
        maxBodyBytes: 64 * 1024,
      },
    },
  });
});
afterAll(() => stack.close());
afterEach(() => stack.simulator.clearFaults());

let victimIndex = 1;

it.each<[string, Fault]>([
  [
    'truncated JSON',
    { kind: 'raw', status: 200, contentType: 'application/json', body: '{"slug":"x","name":"Tru' },
  ],
  [
    'an HTML error page with 200',
    {
      kind: 'raw',
      status: 200,
      contentType: 'text/html',
      body: '<html><body>Bad gateway</body></html>',
    },
  ],
  [
    'an HTML error page with 502',
    { kind: 'raw', status: 502, contentType: 'text/html', body: '<html><body>nginx</body></html>' },
  ],
  [
    'a 200 with an error body',
    {
      kind: 'status',
      status: 200,
      body: { statusCode: 500, error: 'Internal Server Error', message: 'boom' },
    },
  ],
  [
    'wrong types (numbers as strings, a list for an object)',
    {
      kind: 'raw',
      status: 200,
      contentType: 'application/json',
      body: '[{"slug":42,"name":["x"]}]',
    },
  ],
  ['JSON null', { kind: 'raw', status: 200, contentType: 'application/json', body: 'null' }],
  [
    'a stream far past the body limit (as a 2 GB answer would be)',
    { kind: 'stream', bytes: 2 * 1024 * 1024 },
  ],
])('%s → an upstream error at that field only, sibling intact', async (_, fault) => {
  const artists = stack.simulator.data.allArtists();
  const victim = artists[victimIndex++]!.slug;
  stack.simulator.injectFault(fault, { path: `/api/v1/artists/${victim}`, times: 5 });
  const response = await stack.query(
    'query ($top: String!, $victim: String!) { top: artist(slug: $top) { name } victim: artist(slug: $victim) { name } }',
    { top: artists[0]!.slug, victim },
  );
  expect(response.status).toBe(200);
  expect(response.body.data).toEqual({ top: { name: artists[0]!.name }, victim: null });
  expect(response.body.errors).toHaveLength(1);
  expect(['UPSTREAM_INVALID_RESPONSE', 'UPSTREAM_ERROR']).toContain(
    response.body.errors![0]!.extensions?.code,
  );
  const raw = JSON.stringify(response.body);
  expect(raw).not.toContain(stack.simulator.url);
  expect(raw).not.toMatch(/nginx|<html|boom|\n\s+at /);
  // The fault was really served: the victim's path reached the simulator.
  expect(stack.simulator.calls.some((call) => call.segments[3] === victim)).toBe(true);
});
