/** The two authentication modes: server key, and pass-through of each client's own key. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KEY,
  OTHER_CLIENT_KEY,
  SERVER_KEY,
  type Stack,
  startStack,
} from './support/stack.js';

const QUERY = '{ charts { name } }';
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('server-key mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('needs no client key and calls upstream with the server key', async () => {
    const response = await stack.query(QUERY);
    expect(response.status).toBe(200);
    expect(response.body.errors).toBeUndefined();
    expect(stack.simulator.calls.at(-1)!.key).toBe(SERVER_KEY);
  });

  it('ignores a client Authorization header (the gateway key is used)', async () => {
    const response = await stack.query(
      '{ topSongs(limit: 1) { rank } }',
      undefined,
      bearer('whatever'),
    );
    expect(response.status).toBe(200);
    expect(stack.simulator.calls.at(-1)!.key).toBe(SERVER_KEY);
  });
});

describe('pass-through mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      passThrough: true,
      simulator: {
        revokedKeys: ['revoked-key'],
        apiKeys: [CLIENT_KEY, OTHER_CLIENT_KEY, 'revoked-key'],
      },
    });
  });
  afterAll(() => stack.close());

  it('answers 401 UNAUTHENTICATED without a key, before any upstream call', async () => {
    const before = stack.upstreamCalls();
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer ' },
      { authorization: 'Bearer a b' },
    ];
    for (const headers of attempts) {
      const response = await stack.query(QUERY, undefined, headers);
      expect(response.status).toBe(401);
      expect(response.body.data).toBeUndefined();
      expect(response.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect(stack.upstreamCalls()).toBe(before);
  });

  it("uses the client's key upstream and counts its budget separately", async () => {
    const response = await stack.query(
      `${QUERY.slice(0, -1)} apiUsage { used } }`,
      undefined,
      bearer(CLIENT_KEY),
    );
    expect(response.status).toBe(200);
    expect(stack.simulator.calls.at(-1)!.key).toBe(CLIENT_KEY);
    const other = await stack.query('{ apiUsage { used } }', undefined, bearer(OTHER_CLIENT_KEY));
    expect((other.body.data as { apiUsage: { used: number } }).apiUsage.used).toBe(0);
  });

  it('answers 401 for an invalid key, with no data, even when the answer is cached', async () => {
    await stack.query(QUERY, undefined, bearer(CLIENT_KEY)); // now cached
    for (const key of ['made-up-key', 'revoked-key']) {
      const response = await stack.query(
        `{ charts { name } apiUsage { used } }`,
        undefined,
        bearer(key),
      );
      expect(response.status).toBe(401);
      expect(response.body).toEqual({
        errors: [
          expect.objectContaining({
            message: 'Invalid or revoked API key',
            extensions: { code: 'UNAUTHENTICATED' },
          }),
        ],
      });
    }
  });

  it('refuses a rejected key again without asking the upstream', async () => {
    const before = stack.upstreamCalls();
    const response = await stack.query(QUERY, undefined, bearer('made-up-key'));
    expect(response.status).toBe(401);
    expect(stack.upstreamCalls()).toBe(before);
  });

  it('lets a newly seen valid key read the cache after one call proves it', async () => {
    await stack.query(
      '{ topSongs(limit: 3) { rank } trendingSongs(limit: 3) { rank } }',
      undefined,
      bearer(CLIENT_KEY),
    );
    const before = stack.upstreamCalls();
    const response = await stack.query(
      '{ topSongs(limit: 3) { rank } trendingSongs(limit: 3) { rank } }',
      undefined,
      bearer(OTHER_CLIENT_KEY),
    );
    expect(response.status).toBe(200);
    expect(stack.upstreamCalls() - before).toBeLessThanOrEqual(2);
    // Another document reading the same records: the upstream cache answers, not the response cache.
    const again = await stack.query(
      'query Again { topSongs(limit: 3) { rank } trendingSongs(limit: 3) { rank } }',
      undefined,
      bearer(OTHER_CLIENT_KEY),
    );
    expect(again.body.extensions?.cost).toMatchObject({ upstreamCalls: 0, cacheHits: 2 });
  });
});
