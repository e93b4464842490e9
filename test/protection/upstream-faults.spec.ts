/**
 * A failing upstream, from outside (issue 10, items 1 to 3): every failure
 * is an UpstreamError with a stable code, a stale entry answers any
 * transient failure (garbled 200s included) and does not wait out a slow
 * upstream, and a circuit breaker stops calls, and budget, while the
 * upstream is down.
 */
import { afterEach, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';
import { until } from '../support/until.js';

const stacks: Stack[] = [];
afterEach(async () => {
  await Promise.all(stacks.splice(0).map((stack) => stack.close()));
});

/** Entries go stale at once but may stand in for ten minutes: every read after the first is a refresh. */
async function staleStack(extra: Parameters<typeof startStack>[0] = {}): Promise<Stack> {
  const stack = await startStack({
    ...extra,
    gateway: {
      retries: 0,
      deadlineMs: 8_000,
      cache: {
        ttlMs: 1,
        notFoundTtlMs: 1,
        retentionMs: 600_000,
        maxEntries: 1_000,
        maxBytes: 16 * 1024 * 1024,
      },
      resilience: { staleGraceMs: 200, circuit: { failureThreshold: 1_000, openMs: 60_000 } },
      ...extra.gateway,
    },
  });
  stacks.push(stack);
  return stack;
}

const codes = (response: { body: { errors?: { extensions?: Record<string, unknown> }[] } }) =>
  (response.body.errors ?? []).map((error) => error.extensions?.code);

it('a hanging upstream: 50 concurrent reads of cached artists get the stale answer after the grace, in one call', async () => {
  const stack = await staleStack();
  const slug = stack.simulator.data.allArtists()[2]!.slug;
  const query = 'query ($slug: String!) { artist(slug: $slug) { name totalStreams } }';
  const first = await stack.query(query, { slug });
  stack.simulator.injectFault({ kind: 'hang' }, { path: `/api/v1/artists/${slug}` });
  stack.simulator.resetCalls();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 50 }, () => stack.query(query, { slug })));
  const elapsed = performance.now() - started;
  for (const answer of answers) {
    expect(codes(answer)).toEqual([]);
    expect(answer.body.data).toEqual(first.body.data);
    expect(answer.body.extensions?.stale).toEqual([
      { path: ['artist'], ageSeconds: expect.any(Number) },
    ]);
  }
  // One refresh for all of them (single flight), and none waited for the 8 s deadline.
  expect(stack.upstreamCalls()).toBe(1);
  expect(elapsed).toBeLessThan(4_000);
});

it('a hanging upstream with nothing cached: UPSTREAM_ERROR at the field, never INTERNAL_SERVER_ERROR', async () => {
  const stack = await staleStack({
    gateway: {
      deadlineMs: 500,
      client: {
        connectTimeoutMs: 500,
        headersTimeoutMs: 5_000,
        bodyTimeoutMs: 5_000,
        maxConcurrency: 4,
        maxQueue: 100,
        maxBodyBytes: 1 << 20,
      },
    },
  });
  stack.simulator.injectFault({ kind: 'hang' });
  const [a, b] = stack.simulator.data.allArtists();
  const answers = await Promise.all(
    Array.from({ length: 12 }, (_, i) =>
      stack.query(`{ artist(slug: "${i % 2 ? a!.slug : b!.slug}") { name } apiUsage { used } }`),
    ),
  );
  for (const answer of answers) {
    expect(codes(answer)).toEqual(['UPSTREAM_ERROR']);
    expect(answer.body.data).toMatchObject({
      artist: null,
      apiUsage: { used: expect.any(Number) },
    });
  }
});

it('a garbled 200 is answered by the stale entry when there is one', async () => {
  const stack = await staleStack();
  const slug = stack.simulator.data.allArtists()[4]!.slug;
  const query = `{ artist(slug: "${slug}") { name } }`;
  const first = await stack.query(query);
  for (const body of ['{"slug":', '<html>oops</html>', '{"statusCode":500,"message":"x"}']) {
    stack.simulator.injectFault(
      { kind: 'raw', status: 200, body },
      { path: `/api/v1/artists/${slug}`, times: 1 },
    );
    const answer = await stack.query(query);
    expect(codes(answer)).toEqual([]);
    expect(answer.body.data).toEqual(first.body.data);
    expect(answer.body.extensions?.stale).toBeDefined();
  }
});

it('the circuit opens after consecutive failures: no calls, no budget, cold reads fail at once, /ready says so', async () => {
  const stack = await staleStack({
    gateway: {
      resilience: { staleGraceMs: 200, circuit: { failureThreshold: 3, openMs: 60_000 } },
    },
  });
  stack.simulator.injectFault({ kind: 'status', status: 503 });
  const artists = stack.simulator.data.allArtists();
  for (const artist of artists.slice(10, 13)) {
    expect(codes(await stack.query(`{ artist(slug: "${artist.slug}") { name } }`))).toEqual([
      'UPSTREAM_ERROR',
    ]);
  }
  expect(stack.upstreamCalls()).toBe(3);
  const usedBefore = (
    (await stack.query('{ apiUsage { used } }')).body.data as { apiUsage: { used: number } }
  ).apiUsage.used;

  for (const artist of artists.slice(20, 30)) {
    const answer = await stack.query(`{ artist(slug: "${artist.slug}") { name } }`);
    expect(codes(answer)).toEqual(['UPSTREAM_ERROR']);
  }
  expect(stack.upstreamCalls()).toBe(3);
  const usedAfter = (
    (await stack.query('{ apiUsage { used } }')).body.data as { apiUsage: { used: number } }
  ).apiUsage.used;
  expect(usedAfter).toBe(usedBefore);
  const ready = await fetch(`${stack.url}/ready`);
  expect(await ready.json()).toMatchObject({ ready: true, upstreamCircuit: 'open' });
});

it('after its open time, one probe call closes the circuit once the upstream is back', async () => {
  const stack = await staleStack({
    gateway: { resilience: { staleGraceMs: 200, circuit: { failureThreshold: 2, openMs: 300 } } },
  });
  stack.simulator.injectFault({ kind: 'status', status: 503 });
  const artists = stack.simulator.data.allArtists();
  for (const artist of artists.slice(40, 42))
    await stack.query(`{ artist(slug: "${artist.slug}") { name } }`);
  expect(stack.upstreamCalls()).toBe(2);
  stack.simulator.clearFaults();
  const target = artists[50]!;
  await until(
    async () =>
      codes(await stack.query(`{ artist(slug: "${target.slug}") { name } }`)).length === 0,
    20,
  );
  // Refused while open, then the one probe: nothing else reached the upstream.
  expect(stack.upstreamCalls()).toBe(3);
  expect(await (await fetch(`${stack.url}/ready`)).json()).toMatchObject({
    upstreamCircuit: 'closed',
  });
});
