/**
 * Pass-through keys (issue 10, items 9 and 10): a rejected key gets 401 on
 * every request while the gateway remembers it, and a flood of made-up keys
 * costs a bounded number of upstream calls without evicting a good key; one
 * new key is one, however many concurrent requests bring it.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_KEY, OTHER_CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  // An upstream as slow as a real one: a key's proof is still under way when a burst's later requests arrive.
  stack = await startStack({
    passThrough: true,
    simulator: { latencyMs: 150 },
    gateway: { unknownKeysPerMinute: 5 },
  });
});
afterAll(() => stack.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

// First in this file: the flood below spends this client's new keys for the minute.
it("a page's first burst with a new key: 50 concurrent requests all answered, one upstream call", async () => {
  const artist = stack.simulator.data.allArtists()[7]!;
  const before = stack.upstreamCalls();
  // 50 different documents (as a page's parallel queries are), all reading the same record.
  const answers = await Promise.all(
    Array.from({ length: 50 }, (_, i) =>
      stack.query(
        `{ a${i}: artist(slug: "${artist.slug}") { name } }`,
        undefined,
        bearer(OTHER_CLIENT_KEY),
      ),
    ),
  );
  expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
  expect(answers.map((answer, i) => answer.body.data?.[`a${i}`])).toEqual(
    answers.map(() => ({ name: artist.name })),
  );
  // The key's proof was the artist's read: one call for the key and the record together.
  expect(stack.upstreamCalls() - before).toBe(1);
});

it('a key the upstream rejected gets 401 on every request, with no upstream call', async () => {
  const first = await stack.query('{ charts { name } }', undefined, bearer('revoked-or-made-up'));
  expect(first.status).toBe(401);
  const before = stack.upstreamCalls();
  for (const query of [
    '{ __typename }',
    '{ apiUsage { used } }',
    '{ __schema { queryType { name } } }',
    '{ charts { name } }',
  ]) {
    const response = await stack.query(query, undefined, bearer('revoked-or-made-up'));
    expect(response.status, query).toBe(401);
    expect(response.body.data, query).toBeUndefined();
    expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  }
  expect(stack.upstreamCalls()).toBe(before);
});

it('a flood of made-up keys from one client costs a bounded number of upstream calls and leaves a good key alone', async () => {
  await stack.query('{ topSongs(limit: 1) { rank } }', undefined, bearer(CLIENT_KEY));
  const before = stack.upstreamCalls();
  const statuses: number[] = [];
  for (let i = 0; i < 40; i++) {
    statuses.push(
      (
        await stack.query(
          `{ topSongs(limit: ${1 + (i % 5)}) { rank } }`,
          undefined,
          bearer(`made-up-${i}`),
        )
      ).status,
    );
  }
  // Five new keys a minute per client (this test's setting): at most five checks upstream, the rest refused.
  expect(stack.upstreamCalls() - before).toBeLessThanOrEqual(5);
  expect(statuses.filter((status) => status === 429).length).toBeGreaterThanOrEqual(35);
  const good = await stack.query(
    'query Good { topSongs(limit: 1) { rank } }',
    undefined,
    bearer(CLIENT_KEY),
  );
  expect(good.status).toBe(200);
  expect(good.body.extensions?.cost).toMatchObject({ upstreamCalls: 0 });
});
