/**
 * Every error a client can cause carries a stable code, over real HTTP: the
 * inputs of issue 10 (items 5, 6 and 8) that used to end as
 * INTERNAL_SERVER_ERROR or without any code. None of them reaches the upstream.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nestingExceeds } from '../../src/server/plugins/use-nesting-limit.js';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
let allowList: Stack;
beforeAll(async () => {
  stack = await startStack();
  allowList = await startStack({
    sharedSimulator: stack.simulator,
    gateway: { protection: { persistedOperations: { mode: 'allow-list', manifest: {} } } },
  });
});
afterAll(async () => {
  await allowList.close();
  await stack.close();
});

interface Answer {
  readonly status: number;
  readonly codes: unknown[];
  readonly body: {
    data?: unknown;
    errors?: { message: string; extensions?: { code?: unknown } }[];
  };
}

const ACCEPT = { accept: 'application/graphql-response+json' };

async function send(target: Stack, init: RequestInit & { search?: string }): Promise<Answer> {
  const response = await fetch(`${target.url}/graphql${init.search ?? ''}`, {
    ...init,
    headers: { ...ACCEPT, ...(init.headers as Record<string, string> | undefined) },
  });
  const body = JSON.parse(await response.text()) as Answer['body'];
  return {
    status: response.status,
    codes: (body.errors ?? []).map((error) => error.extensions?.code),
    body,
  };
}

const postJson = (body: unknown, target = stack) =>
  send(target, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const get = (search: string, target = stack) => send(target, { method: 'GET', search });

/** Runs `act` and checks that it made no upstream call. */
async function withoutUpstreamCalls(act: () => Promise<Answer>): Promise<Answer> {
  const before = stack.simulator.calls.length;
  const answer = await act();
  expect(stack.simulator.calls.length).toBe(before);
  for (const error of answer.body.errors ?? []) expect(error.message.length).toBeGreaterThan(0);
  return answer;
}

const apq = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

describe('persisted-operation ids that name Object.prototype members', () => {
  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])(
    '%s finds nothing, by documentId or APQ hash',
    async (id) => {
      const answers = await withoutUpstreamCalls(async () => {
        const results = await Promise.all([
          get(`?documentId=${id}`),
          postJson({ documentId: id }),
          postJson({ extensions: apq(id) }),
          get(`?extensions=${encodeURIComponent(JSON.stringify(apq(id)))}`),
        ]);
        return { status: 400, codes: results.flatMap((r) => r.codes), body: {} };
      });
      expect(answers.codes).toEqual(Array(4).fill('PERSISTED_QUERY_NOT_FOUND'));
    },
  );

  it('in allow-list mode: PERSISTED_QUERY_ONLY', async () => {
    const byGet = await withoutUpstreamCalls(() => get('?documentId=__proto__', allowList));
    const byPost = await withoutUpstreamCalls(() =>
      postJson({ documentId: '__proto__' }, allowList),
    );
    expect([byGet.status, byGet.codes, byPost.status, byPost.codes]).toEqual([
      400,
      ['PERSISTED_QUERY_ONLY'],
      400,
      ['PERSISTED_QUERY_ONLY'],
    ]);
  });
});

describe('GET parameters that are not JSON', () => {
  const query = `query=${encodeURIComponent('{ apiUsage { used } }')}`;
  it.each([
    ['variables=abc', `?${query}&variables=abc`],
    ['extensions=abc', `?${query}&extensions=abc`],
    ['variables=%', `?${query}&variables=%`],
    ['extensions=%7B', `?${query}&extensions=%7B`],
  ])('%s → 400 BAD_REQUEST', async (_, search) => {
    const answer = await withoutUpstreamCalls(() => get(search));
    expect([answer.status, answer.codes]).toEqual([400, ['BAD_REQUEST']]);
  });

  it('the same in a form-encoded POST body', async () => {
    const answer = await withoutUpstreamCalls(() =>
      send(stack, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `query=${encodeURIComponent('{ apiUsage { used } }')}&variables=%7Bx`,
      }),
    );
    expect([answer.status, answer.codes]).toEqual([400, ['BAD_REQUEST']]);
  });
});

describe('a POST body that is not JSON', () => {
  it('is 400 BAD_REQUEST, and the answer does not quote the body back', async () => {
    const body = '{"query": <script>alert(1)</script>';
    for (const accept of ['application/graphql-response+json', 'application/json']) {
      const answer = await withoutUpstreamCalls(() =>
        send(stack, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept },
          body,
        }),
      );
      expect([answer.status, answer.codes]).toEqual([400, ['BAD_REQUEST']]);
      expect(JSON.stringify(answer.body)).not.toContain('script');
    }
  });
});

describe('a POST body that is not UTF-8', () => {
  // "\xff" is no UTF-8: decoded leniently it became U+FFFD, and the slug one upstream call.
  const body = Buffer.concat([
    Buffer.from('{"query":"{ artist(slug: \\"bad'),
    Buffer.from([0xff, 0xfe]),
    Buffer.from('\\") { name } }"}'),
  ]);

  it('is 400 BAD_REQUEST before any upstream call, with or without a Content-Length', async () => {
    const declared = await withoutUpstreamCalls(() =>
      send(stack, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
    );
    expect([declared.status, declared.codes]).toEqual([400, ['BAD_REQUEST']]);
    const chunked = await withoutUpstreamCalls(() =>
      send(stack, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: new Blob([body]).stream(),
        duplex: 'half',
      } as RequestInit),
    );
    expect([chunked.status, chunked.codes]).toEqual([400, ['BAD_REQUEST']]);
  });

  it('is refused alike in every media type Yoga reads, with a Content-Length', async () => {
    const document = (bad: Buffer, encode = (text: string) => text) =>
      Buffer.concat([
        Buffer.from(encode('{ artist(slug: "bad')),
        bad,
        Buffer.from(encode('") { name } }')),
      ]);
    const bad = Buffer.from([0xff, 0xfe]);
    for (const [type, bytes] of [
      ['application/graphql', document(bad)],
      [
        'application/x-www-form-urlencoded',
        Buffer.concat([Buffer.from('query='), document(bad, encodeURIComponent)]),
      ],
    ] as const) {
      const answer = await withoutUpstreamCalls(() =>
        send(stack, { method: 'POST', headers: { 'content-type': type }, body: bytes }),
      );
      expect([answer.status, answer.codes], type).toEqual([400, ['BAD_REQUEST']]);
    }
  });

  it('is refused without the response cache too (gateway option), which reads JSON bodies in front of Yoga', async () => {
    const uncached = await startStack({
      sharedSimulator: stack.simulator,
      gateway: { answerCache: false },
    });
    try {
      const answer = await withoutUpstreamCalls(() =>
        send(uncached, { method: 'POST', headers: { 'content-type': 'application/json' }, body }),
      );
      expect([answer.status, answer.codes]).toEqual([400, ['BAD_REQUEST']]);
    } finally {
      await uncached.close();
    }
  });
});

describe('media types', () => {
  it('multipart bodies are refused with 415 BAD_REQUEST, operations unread', async () => {
    const form = new FormData();
    form.set('operations', JSON.stringify({ query: '{ topSongs(limit: 1) { rank } }' }));
    form.set('map', '{}');
    const answer = await withoutUpstreamCalls(() => send(stack, { method: 'POST', body: form }));
    expect([answer.status, answer.codes]).toEqual([415, ['BAD_REQUEST']]);
    expect(answer.body.data).toBeUndefined();
  });

  it('any other unreadable media type too', async () => {
    const answer = await withoutUpstreamCalls(() =>
      send(stack, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{ apiUsage { used } }',
      }),
    );
    expect([answer.status, answer.codes]).toEqual([415, ['BAD_REQUEST']]);
  });
});

describe('documents', () => {
  it.each([
    [
      'list literal',
      (n: number) => `{ topSongs(limit: ${'['.repeat(n)}1${']'.repeat(n)}) { rank } }`,
    ],
    [
      'object literal',
      (n: number) => `{ topSongs(limit: ${'{a:'.repeat(n)}1${'}'.repeat(n)}) { rank } }`,
    ],
    ['selection sets', (n: number) => `{ ${'a {'.repeat(n)} b ${'}'.repeat(n)} }`],
  ])('a 2,000-deep %s → QUERY_TOO_COMPLEX before parsing', async (_, document) => {
    const answer = await withoutUpstreamCalls(() => postJson({ query: document(2_000) }));
    expect([answer.status, answer.codes]).toEqual([400, ['QUERY_TOO_COMPLEX']]);
    expect(answer.body.errors?.[0]?.message).toBe('Nesting limit of 64 brackets exceeded.');
  });

  it('brackets inside strings and comments do not count', async () => {
    const brackets = '['.repeat(100);
    const answer = await postJson({ query: `# ${brackets}\n{ apiUsage { used } a: __typename }` });
    expect(answer.body).toMatchObject({ data: { a: 'Query' } });
    expect(
      nestingExceeds(`{ f(a: "${brackets}", b: """${brackets} \\""" ${brackets}""") }`, 3),
    ).toBe(false);
    expect(nestingExceeds('{ f(a: "\\"[[[[") }', 3)).toBe(false);
    expect(nestingExceeds('{ f(a: [[[1]]]) }', 3)).toBe(true);
  });

  it.each([
    ['Int overflow', 'query ($v: Int) { topSongs(limit: $v) { rank } }', { v: 2_147_483_648 }],
    ['a string for an Int', 'query ($v: Int) { topSongs(limit: $v) { rank } }', { v: 'ten' }],
    ['a missing required variable', 'query ($s: String!) { artist(slug: $s) { name } }', {}],
    [
      'an unknown enum value',
      'query ($t: ArtistTier!) { artistsByTier(tier: $t) { totalCount } }',
      { t: '7b' },
    ],
  ])('variables: %s → 400 BAD_USER_INPUT', async (_, query, variables) => {
    const answer = await withoutUpstreamCalls(() => postJson({ query, variables }));
    expect([answer.status, answer.codes]).toEqual([400, ['BAD_USER_INPUT']]);
  });

  it.each([
    ['mutation { x }', 'Mutation'],
    ['mutation { apiUsage { used } }', 'Mutation'],
  ])('%s → 400 OPERATION_NOT_SUPPORTED', async (query, kind) => {
    const answer = await withoutUpstreamCalls(() => postJson({ query }));
    expect([answer.status, answer.codes]).toEqual([400, ['OPERATION_NOT_SUPPORTED']]);
    expect(answer.body.errors?.[0]?.message).toContain(`${kind} operations are not supported`);
  });

  it('600 `__typename` aliases count against the alias limit', async () => {
    const aliases = Array.from({ length: 600 }, (_, i) => `a${i}: __typename`).join(' ');
    const answer = await withoutUpstreamCalls(() => postJson({ query: `{ ${aliases} }` }));
    expect([answer.status, answer.codes]).toEqual([400, ['QUERY_TOO_COMPLEX']]);
    expect(answer.body.errors?.[0]?.message).toBe('Aliases limit of 15 exceeded, found 600.');
  });

  it.each([
    ['syntax error', '{ apiUsage {', 'GRAPHQL_PARSE_FAILED'],
    ['unknown field', '{ x }', 'GRAPHQL_VALIDATION_FAILED'],
    [
      'two operations, no name',
      'query A { apiUsage { used } } query B { apiUsage { used } }',
      'OPERATION_RESOLUTION_FAILURE',
    ],
  ])('%s keeps Yoga’s code (%s)', async (_, query, code) => {
    const answer = await withoutUpstreamCalls(() => postJson({ query }));
    expect([answer.status, answer.codes]).toEqual([400, [code]]);
  });
});
