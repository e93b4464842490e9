/**
 * Spellings of one thing are one upstream record, not one call each: artist slugs are lower-case
 * names (so `KOFFI-BAMBA` and ` koffi-bamba ` are `koffi-bamba`), territory codes upper case,
 * searches without regard to case. Invisible characters name nothing and cost nothing, and a
 * ranking of no entries reads nothing.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Stack, startStack } from '../support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** Upstream calls `query` costs with each of `values` as `$v`, after the first spelling. */
async function callsAfterFirst(query: string, values: readonly string[]): Promise<number> {
  const first = await stack.query(query, { v: values[0] });
  expect(first.body.errors).toBeUndefined();
  const calls = stack.upstreamCalls();
  for (const value of values.slice(1)) {
    const answer = await stack.query(query, { v: value });
    expect(answer.body.errors).toBeUndefined();
  }
  return stack.upstreamCalls() - calls;
}

it('an artist slug in any case, with blank space around it, is the one artist', async () => {
  const slug = stack.simulator.data.allArtists()[5]!.slug;
  const spellings = [
    slug,
    slug.toUpperCase(),
    ` ${slug} `,
    `${slug[0]!.toUpperCase()}${slug.slice(1)}\n`,
  ];
  expect(
    await callsAfterFirst('query ($v: String!) { artist(slug: $v) { slug name } }', spellings),
  ).toBe(0);
  const answer = await stack.query('query ($v: String!) { artist(slug: $v) { slug } }', {
    v: slug.toUpperCase(),
  });
  expect(answer.body.data).toEqual({ artist: { slug } });
});

it('a territory in lower case is the same chart; a search in any case is the same search', async () => {
  expect(
    await callsAfterFirst(
      'query ($v: String!) { chart(name: "official_afrobeats_chart", territory: $v, limit: 3) { name } }',
      ['UK', 'uk', ' Uk '],
    ),
  ).toBe(0);
  const name = stack.simulator.data.allArtists()[0]!.name.split(' ')[0]!;
  expect(
    await callsAfterFirst('query ($v: String) { artists(first: 5, search: $v) { totalCount } }', [
      name,
      name.toUpperCase(),
      name.toLowerCase(),
    ]),
  ).toBe(0);
});

it('an invisible character in a slug is BAD_USER_INPUT, and a ranking of 0 entries reads nothing', async () => {
  const calls = stack.upstreamCalls();
  const invisible = await stack.query('query ($v: String!) { artist(slug: $v) { name } }', {
    v: 'koffi\u200b-bamba',
  });
  expect(invisible.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  const none = await stack.query('{ topArtistsByListeners(limit: 0) { rank } }');
  expect(none.body.data).toEqual({ topArtistsByListeners: [] });
  expect(stack.upstreamCalls()).toBe(calls);
});
