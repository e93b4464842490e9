/**
 * @defer and @stream (graphql-yoga's defer-stream plugin): the profile first,
 * the slow parts as multipart/mixed incremental payloads; the deferred reads
 * are estimated, capped and reported like the rest, on the last payload.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { captureLog } from '../support/log-capture.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

type Payload = Record<string, unknown> & {
  hasNext?: boolean;
  extensions?: Record<string, unknown>;
};

/** POSTs `query` asking for multipart/mixed; returns the content type and each part's JSON, in order. */
async function multipart(
  query: string,
  variables?: Record<string, unknown>,
  url = stack.url,
): Promise<{ type: string; parts: Payload[] }> {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed' },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const boundary =
    /boundary="?([^";]+)"?/.exec(response.headers.get('content-type') ?? '')?.[1] ?? '-';
  const parts = text
    .split(`--${boundary}`)
    .map((part) => part.slice(part.indexOf('\r\n\r\n') + 4).trim())
    .filter((body) => body.startsWith('{'))
    .map((body) => JSON.parse(body) as Payload);
  return { type: response.headers.get('content-type') ?? '', parts };
}

it('@defer: the profile in the first payload, the history in an incremental one, the cost of both on the last', async () => {
  const slug = stack.simulator.data.allArtists()[2]!.slug;
  const { type, parts } = await multipart(
    `{ artist(slug: "${slug}") { name ... @defer(label: "slow") { history { date } } } }`,
  );
  expect(type).toMatch(/^multipart\/mixed/);
  expect(parts.length).toBeGreaterThanOrEqual(2);
  expect(parts[0]).toMatchObject({ data: { artist: { name: expect.any(String) } }, hasNext: true });
  expect(parts[0]!.data).toEqual({
    artist: { name: stack.simulator.data.artistBySlug(slug)!.name },
  });
  const last = parts.at(-1)!;
  expect(last.hasNext).toBe(false);
  const incremental = parts.flatMap(
    (part) =>
      (part.incremental as { label?: string; data: { history: unknown[] } }[] | undefined) ?? [],
  );
  expect(incremental).toEqual([expect.objectContaining({ label: 'slow', path: ['artist'] })]);
  expect(incremental[0]!.data.history).toHaveLength(
    stack.simulator.data.artistHistory(slug)!.length,
  );
  // Profile and history: both counted, the deferred one included.
  expect(last.extensions?.cost).toMatchObject({ estimated: 2, upstreamCalls: 2 });
});

it('@stream: a long list arrives item by item after its first items', async () => {
  const { parts } = await multipart(
    '{ topArtistsByStreams(limit: 5) @stream(initialCount: 2) { rank } }',
  );
  expect(parts[0]).toMatchObject({
    data: { topArtistsByStreams: [{ rank: 1 }, { rank: 2 }] },
    hasNext: true,
  });
  const streamed = parts
    .flatMap((part) => (part.incremental as { items: { rank: number }[] }[] | undefined) ?? [])
    .flatMap((i) => i.items);
  expect(streamed.map((item) => item.rank)).toEqual([3, 4, 5]);
  expect(parts.at(-1)!.extensions?.cost).toMatchObject({ estimated: 1 });
});

it('deferred reads count against MAX_UPSTREAM_COST before anything runs', async () => {
  const strict = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { protection: { maxUpstreamCost: 1 } },
  });
  try {
    const calls = stack.simulator.calls.length;
    const slug = stack.simulator.data.allArtists()[4]!.slug;
    const refused = await strict.query(
      `{ artist(slug: "${slug}") { name ... @defer { history { date } } } }`,
    );
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_COSTLY',
      estimated: 2,
      maximum: 1,
    });
    expect(stack.simulator.calls.length).toBe(calls);
  } finally {
    await strict.close();
  }
});

it('@stream with initialCount below 0 or null, literal or variable, is BAD_USER_INPUT before anything runs', async () => {
  const log = captureLog('warn');
  const logged = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { logger: log.logger },
  });
  const byVariable =
    'query ($n: Int) { trendingArtists(limit: 3) @stream(initialCount: $n) { rank } }';
  const cases: [string, Record<string, unknown> | undefined][] = [
    ['{ trendingArtists(limit: 3) @stream(initialCount: -1) { rank } }', undefined],
    ['{ trendingArtists(limit: 3) @stream(initialCount: null) { rank } }', undefined],
    [byVariable, { n: -1 }],
    [byVariable, { n: null }],
    [
      'query ($n: Int) { ...T } fragment T on Query { trendingSongs(limit: 3) @stream(initialCount: $n) { rank } }',
      { n: -2 },
    ],
  ];
  try {
    for (const [query, variables] of cases) {
      const calls = stack.upstreamCalls();
      const { parts } = await multipart(query, variables, logged.url);
      const errors = parts.flatMap((part) => (part.errors as Payload[] | undefined) ?? []);
      expect(
        errors.map((error) => error.extensions?.code),
        query,
      ).toEqual(['BAD_USER_INPUT']);
      expect(parts[0]?.data ?? null).toBeNull();
      expect(stack.upstreamCalls(), query).toBe(calls);
    }
    // Refused before execution: 400 under application/graphql-response+json, as bad variables are.
    const calls = stack.upstreamCalls();
    const plain = await logged.query(byVariable, { n: -1 });
    expect(plain.status).toBe(400);
    expect(plain.body.errors?.[0]?.extensions).toMatchObject({
      code: 'BAD_USER_INPUT',
      argumentName: 'initialCount',
    });
    expect(stack.upstreamCalls()).toBe(calls);
    // The client's mistake, not the gateway's: nothing at error level.
    expect(
      log.lines().filter((line) => (JSON.parse(line) as { level: number }).level >= 50),
    ).toEqual([]);
  } finally {
    await logged.close();
  }
});

it('a client that accepts only JSON gets a deferred and streamed query whole, in one 200 body', async () => {
  const example = readFileSync('examples/operations/ArtistPage.graphql', 'utf8');
  expect(example).toMatch(/@defer/);
  const slug = stack.simulator.data.allArtists()[6]!.slug;
  for (const accept of ['application/json', 'application/graphql-response+json']) {
    const response = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({ query: example, variables: { slug } }),
    });
    expect(response.status, accept).toBe(200);
    expect(response.headers.get('content-type')).toMatch(
      new RegExp(`^${accept.replace('+', '\\+')}`),
    );
    const body = (await response.json()) as Payload & {
      data: { artist: { name: string; history: unknown[]; songs: unknown } };
    };
    expect(body.errors).toBeUndefined();
    expect(body.hasNext).toBeUndefined();
    expect(body.incremental).toBeUndefined();
    expect(body.data.artist.name).toBe(stack.simulator.data.artistBySlug(slug)!.name);
    // The deferred parts are there, merged where they belong.
    expect(body.data.artist.history).toHaveLength(stack.simulator.data.artistHistory(slug)!.length);
    expect(body.extensions?.cost).toMatchObject({ estimated: expect.any(Number) });
  }
  const streamed = await fetch(`${stack.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({
      query: '{ topArtistsByStreams(limit: 5) @stream(initialCount: 2) { rank } }',
    }),
  });
  expect(streamed.status).toBe(200);
  expect(((await streamed.json()) as Payload).data).toEqual({
    topArtistsByStreams: [1, 2, 3, 4, 5].map((rank) => ({ rank })),
  });
});
