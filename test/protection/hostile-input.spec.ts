/**
 * Hostile input, property-based (fast-check, fixed seed, bounded time): any
 * string, number or header value in any argument gets a well-formed GraphQL
 * answer with a clear error; the gateway never crashes, never calls an
 * upstream path other than the intended endpoint, never leaks a key or a
 * stack trace, and never gives data to an invalid key.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLIENT_KEY,
  type GraphQLResponse,
  OTHER_CLIENT_KEY,
  SERVER_KEY,
  type Stack,
  startStack,
} from '../support/stack.js';
import { expectWellFormed as expectAnswerWellFormed } from '../support/well-formed.js';

const SEED = 20_261_121;
/** Modest runs and a time bound: the whole file stays within a few seconds. */
const RUN = {
  seed: SEED,
  numRuns: 40,
  interruptAfterTimeLimit: 4_000,
  markInterruptAsFailure: false,
} as const;

let stack: Stack;
let passThrough: Stack;
beforeAll(async () => {
  stack = await startStack();
  passThrough = await startStack({ passThrough: true, sharedSimulator: stack.simulator });
});
afterAll(async () => {
  await passThrough.close();
  await stack.close();
});

/** Any text: every code point including control characters and lone surrogates, plus known troublemakers. */
const text = () =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.constantFrom(
      '',
      ' ',
      '.',
      '..',
      '../..',
      '/',
      '%2F',
      '%00',
      '\u0000',
      '?a=b',
      '#x',
      'a/b',
      '\r\nX-Injected: 1',
      'x'.repeat(300),
    ),
  );
const hugeOrNegative = () =>
  fc.oneof(
    fc.integer(),
    fc.constantFrom(-1, 0, 101, 201, 2 ** 31 - 1, 2 ** 31, 2 ** 53, -(2 ** 53), 1e300, -1e300, 0.5),
  );

/** What every answer must be, whatever was sent (support/well-formed.ts), secrets this stack's. */
function expectWellFormed(response: GraphQLResponse) {
  expectAnswerWellFormed(response, [SERVER_KEY, stack.simulator.url]);
}

/** Every upstream call since `from` went to `expected` exactly (decoded segments after /api/v1). */
function expectOnlyCalls(from: number, expected: (segments: readonly string[]) => boolean) {
  for (const call of stack.simulator.calls.slice(from)) {
    expect(call.segments.slice(0, 2)).toEqual(['api', 'v1']);
    expect(expected(call.segments.slice(2)), call.rawPath).toBe(true);
  }
}

describe('strings in every argument', () => {
  it('artist(slug:) calls only /artists/<that slug>, as one segment', async () => {
    await fc.assert(
      fc.asyncProperty(text(), async (slug) => {
        const from = stack.simulator.calls.length;
        const response = await stack.query(
          'query ($slug: String!) { artist(slug: $slug) { name } }',
          { slug },
        );
        expectWellFormed(response);
        // Artist slugs are lower-case names: a spelling is trimmed and lower-cased, never another record.
        const sent = slug.trim().toLowerCase();
        expectOnlyCalls(from, (s) => s.length === 2 && s[0] === 'artists' && s[1] === sent);
      }),
      RUN,
    );
  });

  it('song facts keep slug and threshold in their own segments', async () => {
    await fc.assert(
      fc.asyncProperty(text(), hugeOrNegative(), async (slug, threshold) => {
        const from = stack.simulator.calls.length;
        const response = await stack.query(
          'query ($slug: String!, $t: SafeInt!) { song(slug: $slug) { streamMilestone(threshold: $t) { reached } } }',
          { slug, t: threshold },
        );
        expectWellFormed(response);
        expectOnlyCalls(
          from,
          (s) =>
            (s.length === 2 && s[0] === 'songs' && s[1] === slug.trim()) ||
            (s.length === 7 &&
              s[0] === 'milestones' &&
              s[1] === 'facts' &&
              s[4] === slug.trim() &&
              s[6] === String(threshold)),
        );
      }),
      RUN,
    );
  });

  it('chart name and territory, search text, country and letter never leave their parameter', async () => {
    await fc.assert(
      fc.asyncProperty(text(), text(), text(), async (a, b, c) => {
        const from = stack.simulator.calls.length;
        const response = await stack.query(
          `query ($a: String!, $b: String!, $c: String) {
             chart(name: $a, territory: $b, limit: 1) { name }
             searchSongs(title: $a, artistName: $b) { slug }
             artists(first: 1, search: $c, country: $c, letter: $c) { totalCount }
           }`,
          { a, b, c },
        );
        expectWellFormed(response);
        expectOnlyCalls(
          from,
          (s) =>
            (s.length === 3 &&
              s[0] === 'charts' &&
              s[1] === a.trim() &&
              s[2] === b.trim().toUpperCase()) ||
            (s.length === 2 && s[0] === 'songs' && s[1] === 'search') ||
            (s.length === 1 && s[0] === 'artists'),
        );
        for (const call of stack.simulator.calls.slice(from)) {
          // Query values stay values: no parameter beyond those the gateway sets.
          for (const name of Object.keys(call.query)) {
            expect([
              'page',
              'limit',
              'title',
              'artistName',
              'q',
              'country',
              'letter',
              'isAfrobeats',
              'sortBy',
            ]).toContain(name);
          }
        }
      }),
      RUN,
    );
  });

  it('cursors, enum-like strings and huge or negative numbers are refused before any upstream call', async () => {
    await fc.assert(
      fc.asyncProperty(text(), text(), hugeOrNegative(), async (cursor, tier, n) => {
        const from = stack.simulator.calls.length;
        const cursorAnswer = await stack.query(
          'query ($c: String) { recentMilestones(first: 1, after: $c) { totalCount } }',
          {
            c: cursor,
          },
        );
        expectWellFormed(cursorAnswer);
        const tierAnswer = await stack.query(
          'query ($t: ArtistTier!) { artistsByTier(tier: $t, first: 1) { totalCount } }',
          {
            t: tier,
          },
        );
        expectWellFormed(tierAnswer);
        const numberAnswer = await stack.query('query ($n: Int) { topSongs(limit: $n) { rank } }', {
          n,
        });
        expectWellFormed(numberAnswer);
        const valid = Number.isInteger(n) && n >= 0 && n <= 100;
        if (!valid) expect(numberAnswer.body.errors?.length).toBeGreaterThan(0);
        expectOnlyCalls(
          from,
          (s) =>
            (s[0] === 'milestones' && s[1] === 'recent' && s.length === 2) ||
            (s[0] === 'leaderboard' && s[1] === 'songs'),
        );
        // An arbitrary tier never reaches the upstream: the enum refuses it first.
        expect(
          stack.simulator.calls.slice(from).some((call) => call.segments[3] === 'artists'),
        ).toBe(false);
      }),
      RUN,
    );
  });
});

/** A raw HTTP/1.1 POST through node:http, which sends any byte a header may hold (tab, visible ASCII, 0x80–0xFF). */
function rawPost(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(`${url}/graphql`, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

describe('variables', () => {
  /** A body whose variable `name` is arrays nested `depth` deep: 9 KB, past JSON.stringify's stack. */
  const nested = async (query: string, name: string, depth: number): Promise<GraphQLResponse> => {
    const response = await fetch(`${stack.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json' },
      body: `{"query":${JSON.stringify(query)},"variables":{"${name}":${'['.repeat(depth)}${']'.repeat(depth)}}}`,
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as GraphQLResponse['body'],
    };
  };

  it('nested thousands deep, declared or not, get a clear answer and cost nothing', async () => {
    const calls = stack.simulator.calls.length;
    const undeclared = await nested('{ __typename }', 'v', 4_500);
    expectWellFormed(undeclared);
    expect(undeclared.body.data).toEqual({ __typename: 'Query' });
    const declared = await nested('query ($ids: [ID!]!) { nodes(ids: $ids) { id } }', 'ids', 4_500);
    expectWellFormed(declared);
    expect(declared.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.simulator.calls.length).toBe(calls);
  });
});

describe('headers', () => {
  /** Header values HTTP can carry: tab, visible ASCII, spaces and obsolete text (0x80–0xFF). */
  const headerValue = () =>
    fc
      .string({
        unit: fc
          .oneof(
            fc.integer({ min: 0x20, max: 0x7e }),
            fc.integer({ min: 0x80, max: 0xff }),
            fc.constant(0x09),
          )
          .map((code) => String.fromCharCode(code)),
        maxLength: 60,
      })
      .map((value) => value.trim());

  it('any Accept, Content-Type or X-Forwarded-For gets a clear HTTP answer, never a crash', async () => {
    await fc.assert(
      fc.asyncProperty(
        headerValue(),
        headerValue(),
        headerValue(),
        async (accept, contentType, forwarded) => {
          const response = await rawPost(
            stack.url,
            { accept, 'content-type': contentType, 'x-forwarded-for': forwarded },
            JSON.stringify({ query: '{ apiUsage { used } }' }),
          );
          expect(response.status).toBeLessThan(500);
          const { body } = response;
          expect(body).not.toContain(SERVER_KEY);
          if (response.status !== 406 && response.status !== 415) {
            expect(JSON.parse(body)).toSatisfy((b: object) => 'data' in b || 'errors' in b);
          }
        },
      ),
      RUN,
    );
  });

  it('pass-through: any Authorization that is not a valid key gets 401 and no data, even for cached answers', async () => {
    await passThrough.query('{ topSongs(limit: 2) { rank } }', undefined, {
      authorization: `Bearer ${CLIENT_KEY}`,
    });
    await fc.assert(
      fc.asyncProperty(headerValue(), fc.boolean(), async (value, asBearer) => {
        const authorization = asBearer ? `Bearer ${value}` : value;
        fc.pre(
          ![CLIENT_KEY, OTHER_CLIENT_KEY, SERVER_KEY].some((key) => authorization.includes(key)),
        );
        const response = await rawPost(
          passThrough.url,
          {
            authorization,
            'content-type': 'application/json',
            accept: 'application/graphql-response+json',
          },
          JSON.stringify({ query: '{ topSongs(limit: 2) { rank } }' }),
        );
        expect(response.status).toBe(401);
        const body = JSON.parse(response.body) as GraphQLResponse['body'];
        expect(body.data).toBeUndefined();
        expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
      }),
      RUN,
    );
  });
});
