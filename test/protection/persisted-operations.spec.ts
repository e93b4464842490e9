/** Persisted operations: APQ registration and lookup, trusted-document ids, allow-list mode. */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postGraphQLBody, type Stack, startStack } from '../support/stack.js';

const manifest = JSON.parse(
  readFileSync('examples/generated/persisted-documents.json', 'utf8'),
) as Record<string, string>;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const idOf = (operationName: string) =>
  Object.entries(manifest).find(([, query]) =>
    new RegExp(`^(query|subscription) ${operationName}\\b`).test(query),
  )![0];

const post = (stack: Stack, body: Record<string, unknown>) => postGraphQLBody(stack.url, body);

describe('default mode: any query, APQ, and manifest ids', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('APQ: unknown hash → PersistedQueryNotFound; query + hash registers it; hash alone then runs it', async () => {
    const query = '{ topSongs(limit: 2) { rank } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const miss = await post(stack, { extensions });
    expect(miss.body.errors?.[0]).toMatchObject({
      message: 'PersistedQueryNotFound',
      extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' },
    });
    const register = await post(stack, { query, extensions });
    expect(register.body.data).toEqual({ topSongs: [{ rank: 1 }, { rank: 2 }] });
    const hit = await post(stack, { extensions });
    expect(hit.status).toBe(200);
    expect(hit.body.data).toEqual(register.body.data);
  });

  it('APQ over GET with the hash in `extensions`', async () => {
    const query = '{ topSongs(limit: 1) { rank } }';
    const extensions = JSON.stringify({
      persistedQuery: { version: 1, sha256Hash: sha256(query) },
    });
    await post(stack, { query, extensions: JSON.parse(extensions) });
    const response = await fetch(
      `${stack.url}/graphql?extensions=${encodeURIComponent(extensions)}`,
      {
        headers: { accept: 'application/graphql-response+json' },
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ data: { topSongs: [{ rank: 1 }] } });
  });

  it('refuses to register a query under a hash that is not its own', async () => {
    const response = await post(stack, {
      query: '{ charts { name } }',
      extensions: { persistedQuery: { version: 1, sha256Hash: sha256('{ apiUsage { used } }') } },
    });
    expect(response.status).toBe(400);
    expect(response.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_HASH_MISMATCH');
  });

  it('runs a manifest document by `documentId`, as the client preset sends it (POST and GET, sha256: prefix too)', async () => {
    const id = idOf('ApiUsage');
    const byPost = await post(stack, { documentId: id });
    expect(byPost.body.data?.apiUsage).toMatchObject({ dailyLimit: 1000 });
    const byPrefix = await post(stack, { documentId: `sha256:${id}` });
    expect(byPrefix.body.data?.apiUsage).toMatchObject({ dailyLimit: 1000 });
    const byGet = await fetch(`${stack.url}/graphql?documentId=${id}`, {
      headers: { accept: 'application/json' },
    });
    expect(((await byGet.json()) as { data: { apiUsage: unknown } }).data.apiUsage).toMatchObject({
      dailyLimit: 1000,
    });
  });
});

describe('allow-list mode (PERSISTED_OPERATIONS=allow-list)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      gateway: { protection: { persistedOperations: { mode: 'allow-list' } } },
    });
  });
  afterAll(() => stack.close());

  const queries = Object.keys(manifest).filter((id) => manifest[id]!.startsWith('query '));
  it.each(queries.map((id) => ({ id, name: /query (\w+)/.exec(manifest[id]!)![1]! })))(
    'runs manifest document $name by its id',
    async ({ id }) => {
      const slug = stack.simulator.data.allArtists()[0]!.slug;
      const response = await post(stack, { documentId: id, variables: { slug } });
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data).toBeTruthy();
    },
  );

  it("runs the manifest subscription (the example app's ticker) by its id over SSE", async () => {
    const controller = new AbortController();
    const response = await fetch(`${stack.url}/graphql?documentId=${idOf('MilestoneCrossed')}`, {
      headers: { accept: 'text/event-stream' },
      signal: controller.signal,
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    controller.abort();
  });

  it('refuses query text, even a manifest document sent as text, before any upstream call', async () => {
    const calls = stack.upstreamCalls();
    for (const query of ['{ charts { name } }', manifest[idOf('ApiUsage')]!]) {
      const response = await post(stack, { query });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    }
    expect(stack.upstreamCalls()).toBe(calls);
  });

  it('refuses unknown ids and APQ registration: 0 of 3 attempts run', async () => {
    const query = '{ charts { name } }';
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const calls = stack.upstreamCalls();
    const attempts = [
      await post(stack, { documentId: sha256('not in the manifest') }),
      await post(stack, { query, extensions }),
      await post(stack, { extensions }),
    ];
    expect(attempts.map((attempt) => attempt.body.errors?.[0]?.extensions?.code)).toEqual([
      'PERSISTED_QUERY_ONLY',
      'PERSISTED_QUERY_ONLY',
      'PERSISTED_QUERY_ONLY',
    ]);
    expect(attempts.every((attempt) => attempt.body.data === undefined)).toBe(true);
    expect(stack.upstreamCalls()).toBe(calls);
  });

  it('refuses to start when the manifest cannot be read', async () => {
    await expect(
      startStack({
        gateway: {
          protection: {
            persistedOperations: { mode: 'allow-list', manifestPath: '/nonexistent.json' },
          },
        },
      }),
    ).rejects.toThrow(/manifest cannot be read/);
  });
});
