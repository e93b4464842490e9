/**
 * Pass-through keys (issue 10, items 9 and 10): a rejected key gets 401 on
 * every request while the gateway remembers it, and a flood of made-up keys
 * costs a bounded number of upstream calls without evicting a good key.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CLIENT_KEY, type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ passThrough: true, gateway: { unknownKeysPerMinute: 5 } });
});
afterAll(() => stack.close());

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

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
