/**
 * Requests take turns at Yoga (CONCURRENT_ANSWERS): past the bound, a
 * GraphQL request waits, first come first served, while response-cache hits
 * and the health paths are answered at once; request bodies held in total
 * are bounded (REQUEST_BODIES_TOTAL_BYTES): past it a new body is refused
 * with OVERLOADED. An operation relayed from a WebSocket takes its turn too.
 * A turn here is held by a request whose upstream read the
 * simulator holds, so nothing depends on how fast anything runs.
 */
import { createClient } from 'graphql-ws';
import { afterAll, beforeAll, expect, it } from 'vitest';
import WebSocket from 'ws';
import { askTwice } from '../support/admission.js';
import { until } from '../support/replicas.js';
import { type GraphQLResponse, type Stack, startStack } from '../support/stack.js';

/** Each waiting request's body: the budget below holds the running one's and two of these. */
const PADDING = 'x'.repeat(600);
const BODIES_BUDGET = 2_048;

let stack: Stack;
let slugs: string[];
beforeAll(async () => {
  stack = await startStack({
    gateway: { memory: { concurrentAnswers: 1, requestBodiesBytes: BODIES_BUDGET } },
  });
  slugs = stack.simulator.data
    .allArtists()
    .slice(0, 6)
    .map((artist) => artist.slug);
});
afterAll(() => stack.close());

const gauge = async (name: string, label: string) =>
  Number(
    new RegExp(`^${name}\\{[^}]*="${label}"\\} (\\d+)`, 'm').exec(
      await stack.gateway.metrics.scrape(),
    )?.[1],
  );

/** One artist's name, the query padded (a comment) to make its body the size the test needs. */
const artistName = (slug: string, padding = ''): Promise<GraphQLResponse> =>
  stack.query(`query ($slug: String!) { artist(slug: $slug) { name } } # ${padding}`, { slug });

/** Holds the upstream read of `slug`'s profile until the returned function is called. */
function holdProfile(slug: string): () => void {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  stack.simulator.injectFault({ kind: 'hold', until: held }, { path: `/api/v1/artists/${slug}` });
  return release;
}

it('past CONCURRENT_ANSWERS a request waits its turn; hits and health checks never wait', async () => {
  const hit = '{ __typename }';
  await askTwice(() => stack.query(hit));
  const release = holdProfile(slugs[0]!);
  const first = artistName(slugs[0]!);
  await until(() => stack.simulator.calls.some((call) => call.rawPath.endsWith(slugs[0]!)));

  // The one turn is taken: the next request waits for it, before any upstream read.
  const second = artistName(slugs[1]!);
  await until(async () => (await gauge('gateway_answers', 'waiting')) === 1);
  expect(await gauge('gateway_answers', 'active')).toBe(1);

  // Meanwhile a stored answer and the health paths are answered at once.
  const answered = await stack.query(hit);
  expect(answered.body.extensions?.cost).toMatchObject({ responseCache: 'hit' });
  expect((await fetch(`${stack.url}/health`)).status).toBe(200);
  expect((await fetch(`${stack.url}/ready`)).status).toBe(200);
  expect(stack.simulator.calls.some((call) => call.rawPath.endsWith(slugs[1]!))).toBe(false);

  release();
  stack.simulator.clearFaults();
  const [one, two] = await Promise.all([first, second]);
  expect([one.status, two.status]).toEqual([200, 200]);
  expect(two.body.data).toMatchObject({ artist: { name: expect.any(String) } });
  expect(await gauge('gateway_answers', 'waiting')).toBe(0);
});

it('past REQUEST_BODIES_TOTAL_BYTES a new body gets OVERLOADED (503), the others their answers', async () => {
  const release = holdProfile(slugs[2]!);
  const running = artistName(slugs[2]!);
  await until(() => stack.simulator.calls.some((call) => call.rawPath.endsWith(slugs[2]!)));

  // Two more wait for the turn, each holding its body.
  const waiting = [artistName(slugs[3]!, PADDING)];
  await until(async () => (await gauge('gateway_answers', 'waiting')) === 1);
  waiting.push(artistName(slugs[3]!, PADDING));
  await until(async () => (await gauge('gateway_answers', 'waiting')) === 2);
  const held = await gauge('gateway_held_bytes', 'request_bodies');
  expect(held).toBeGreaterThan(2 * PADDING.length);
  expect(held).toBeLessThanOrEqual(BODIES_BUDGET);

  // A third would pass the budget: refused without being read, and told when to come back.
  const refused = await artistName(slugs[3]!, PADDING);
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('1');
  expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'OVERLOADED' });

  release();
  stack.simulator.clearFaults();
  const answers = await Promise.all([running, ...waiting]);
  expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
  await until(async () => (await gauge('gateway_held_bytes', 'request_bodies')) === 0);
  // Room again: a body is read as before.
  expect((await artistName(slugs[3]!, PADDING)).status).toBe(200);
});

it('an operation over a WebSocket waits its turn with the HTTP requests', async () => {
  const release = holdProfile(slugs[4]!);
  const running = artistName(slugs[4]!);
  await until(() => stack.simulator.calls.some((call) => call.rawPath.endsWith(slugs[4]!)));

  const socket = createClient({
    url: `${stack.url.replace('http', 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  const relayed = new Promise<unknown>((resolve, reject) => {
    let data: unknown;
    socket.subscribe(
      {
        query: 'query ($slug: String!) { artist(slug: $slug) { name } }',
        variables: { slug: slugs[5] },
      },
      { next: (result) => (data = result.data), error: reject, complete: () => resolve(data) },
    );
  });
  await until(async () => (await gauge('gateway_answers', 'waiting')) === 1);
  expect(stack.simulator.calls.some((call) => call.rawPath.endsWith(slugs[5]!))).toBe(false);

  release();
  stack.simulator.clearFaults();
  expect((await running).status).toBe(200);
  expect(await relayed).toEqual({ artist: { name: expect.any(String) } });
  await socket.dispose();
});
