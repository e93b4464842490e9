/**
 * A response-cache hit is answered by the listener's fast path, a miss by
 * Yoga and its plugins (src/server/response-cache/fast-path.ts says why);
 * both go through the same functions for what every answer carries
 * (src/server/answer-parts/). Seen from outside, the same operation answered
 * either way has the same header names and the same extensions, a hit
 * adding only `cost.responseCache`; by POST and by GET, with an Origin.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    gateway: { protection: { rateLimit: { requests: 1_000, windowSeconds: 60 } } },
  });
});
afterAll(() => stack.close());

interface Answer {
  readonly headers: string[];
  readonly body: { data?: unknown; extensions?: Record<string, unknown> };
}

const ORIGIN = 'http://localhost:5173';

async function ask(query: string, method: 'GET' | 'POST'): Promise<Answer> {
  const headers = { accept: 'application/graphql-response+json', origin: ORIGIN };
  const response =
    method === 'POST'
      ? await fetch(`${stack.url}/graphql`, {
          method,
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify({ query }),
        })
      : await fetch(`${stack.url}/graphql?query=${encodeURIComponent(query)}`, { headers });
  expect(response.status).toBe(200);
  return {
    // Names only: a date, a length or an ETag differs between any two answers.
    headers: [...response.headers.keys()].filter((name) => name !== 'date').sort(),
    body: (await response.json()) as Answer['body'],
  };
}

/** Every key path of a JSON value, values left out: the shape of the extensions. */
function shapeOf(value: unknown, at = ''): string[] {
  if (typeof value !== 'object' || value === null) return [at];
  return Object.entries(value).flatMap(([key, inner]) => shapeOf(inner, `${at}.${key}`));
}

it.each(['POST', 'GET'] as const)(
  'by %s: a hit has the same header names and extensions as a warm miss, and responseCache',
  async (method) => {
    const slug = stack.simulator.data.allArtists()[method === 'POST' ? 1 : 2]!.slug;
    const query = `query Page${method} { artist(slug: "${slug}") { name followers songs(first: 2) { edges { node { title } } } } }`;
    // Cold, then warm: the second answer is a response-cache miss over a warm upstream cache
    // (its key's second miss, which stores the answer), the third a hit.
    await ask(query, method);
    const warmMiss = await ask(query, method);
    const hit = await ask(query, method);

    const missCost = warmMiss.body.extensions?.cost as Record<string, unknown>;
    const hitCost = hit.body.extensions?.cost as Record<string, unknown>;
    expect(missCost.upstreamCalls).toBe(0);
    expect(missCost.responseCache).toBeUndefined();
    expect(hitCost.responseCache).toBe('hit');
    expect(hit.body.data).toEqual(warmMiss.body.data);

    expect(hit.headers).toEqual(warmMiss.headers);
    const missShape = shapeOf(warmMiss.body.extensions);
    expect(shapeOf(hit.body.extensions).sort()).toEqual(
      [...missShape, '.cost.responseCache'].sort(),
    );
    // The same figures where they mean the same: the estimate, the day's limit and reset (a hit's
    // remaining calls may lag a second: fast-path.ts reads the ledger at most once a second).
    expect(hitCost.estimated).toEqual(expect.any(Number));
    expect(hitCost.estimated).toBe(missCost.estimated);
    expect(hitCost.budget).toMatchObject({
      dailyLimit: (missCost.budget as { dailyLimit: number }).dailyLimit,
      resetsAt: (missCost.budget as { resetsAt: string }).resetsAt,
    });
  },
);
