/**
 * The gateway answers its documented paths exactly (/graphql, /graphql/,
 * /health, /ready, /metrics); any other gets the one not-found answer, even
 * where Yoga would match it for ending like one of them.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const PAGE = { accept: 'text/html' };

async function answerOf(path: string, init: RequestInit = {}) {
  const response = await fetch(`${stack.url}${path}`, init);
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.text(),
  };
}

describe('served paths', () => {
  it('each documented path answers', async () => {
    expect((await answerOf('/health')).status).toBe(200);
    const ready = await answerOf('/ready');
    expect([ready.status, JSON.parse(ready.body)]).toMatchObject([200, { ready: true }]);
    expect(await answerOf('/metrics')).toMatchObject({ status: 200, type: /^text\/plain/ });
    for (const path of ['/graphql', '/graphql/'])
      expect(await answerOf(path, { headers: PAGE }), path).toMatchObject({
        status: 200,
        type: 'text/html; charset=utf-8',
      });
  });

  it("a browser's page request for / is sent to GraphiQL; any other request for / is not found", async () => {
    const page = await fetch(`${stack.url}/`, { headers: PAGE, redirect: 'manual' });
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe('/graphql');
    expect((await answerOf('/')).status).toBe(404);
    expect((await answerOf('/', { method: 'POST', headers: PAGE })).status).toBe(404);
  });

  it('any other path gets the not-found answer, also where Yoga matches the end of the URL', async () => {
    const before = stack.upstreamCalls();
    const unknown = await answerOf('/no-such-path');
    expect(unknown.status).toBe(404);
    expect(unknown.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(unknown.body)).toMatchObject({
      errors: [{ extensions: { code: 'NOT_FOUND' } }],
    });
    const lookalikes: [string, RequestInit?][] = [
      ['/anything/ready'],
      ['/x?y=/ready'],
      ['/ready/'],
      ['/x/health'],
      ['/x?y=/health'],
      ['/x/metrics'],
      ['/x/graphql', { headers: PAGE }],
      ['/x?y=/graphql', { headers: PAGE }],
      ['/graphql//', { headers: PAGE }],
      [
        '/api/graphql',
        {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ charts { name } }' }),
        },
      ],
    ];
    const answers = await Promise.all(lookalikes.map(([path, init]) => answerOf(path, init)));
    expect(answers.map(({ status }) => status)).toEqual(lookalikes.map(() => 404));
    expect(answers).toEqual(lookalikes.map(() => unknown));
    expect(stack.upstreamCalls()).toBe(before);
  });
});
