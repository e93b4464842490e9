/** No argument can change which upstream path is requested. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

/** Odd but harmless once encoded: forwarded, each as one segment (an artist slug trimmed and in lower case). */
const ODD = ['%2e%2e', 'a?b=c', 'a#b', 'x%2Fy', 'émeute ✓', ' spaced '];
/** Would climb or split a level at an upstream or proxy that normalises paths, or cannot be encoded: never sent. */
const PATH_BREAKING = [
  '../admin',
  'a/b',
  '..',
  '.',
  'a\\b',
  'tab\there',
  'nul\u0000',
  '\ud800',
  'x\udc00y',
  'zero\u200bwidth',
  'b\ufeffom',
];

describe('path segments', () => {
  it.each(ODD)('artist(slug: %j) requests exactly /api/v1/artists/<that slug>', async (slug) => {
    stack.simulator.resetCalls();
    const response = await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', {
      slug,
    });
    expect(response.body.data).toEqual({ artist: null });
    expect(response.body.errors?.[0]).toMatchObject({
      path: ['artist'],
      extensions: { code: 'NOT_FOUND' },
    });
    expect(stack.simulator.calls).toHaveLength(1);
    expect(stack.simulator.calls[0]!.segments).toEqual([
      'api',
      'v1',
      'artists',
      slug.trim().toLowerCase(),
    ]);
  });

  it.each(PATH_BREAKING)(
    'artist(slug: %j) is BAD_USER_INPUT before any upstream call',
    async (slug) => {
      stack.simulator.resetCalls();
      const response = await stack.query(
        'query ($slug: String!) { artist(slug: $slug) { name } }',
        { slug },
      );
      expect(response.body.data).toEqual({ artist: null });
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          path: ['artist'],
          extensions: { code: 'BAD_USER_INPUT', argumentName: 'slug' },
        }),
      ]);
      expect(stack.simulator.calls).toHaveLength(0);
    },
  );

  it('refuses a song slug that would climb levels, and a chart name or territory with a lone surrogate, without a call', async () => {
    stack.simulator.resetCalls();
    const response = await stack.query(
      `query ($slug: String!, $bad: String!) {
         song(slug: $slug) { title }
         byName: chart(name: $bad, territory: "UK") { name }
         byTerritory: chart(name: "official_afrobeats_chart", territory: $bad) { name }
         apiUsage { dailyLimit }
       }`,
      { slug: '../../artists/x', bad: '\ud800' },
    );
    expect(response.body.data).toEqual({
      song: null,
      byName: null,
      byTerritory: null,
      apiUsage: { dailyLimit: 1000 },
    });
    const codes = Object.fromEntries(
      (response.body.errors ?? []).map((e) => [e.path?.[0], e.extensions]),
    );
    expect(codes).toEqual({
      song: { code: 'BAD_USER_INPUT', argumentName: 'slug' },
      byName: { code: 'BAD_USER_INPUT', argumentName: 'name' },
      byTerritory: { code: 'BAD_USER_INPUT', argumentName: 'territory' },
    });
    expect(stack.simulator.calls).toHaveLength(0);
  });

  it('encodes query values instead of letting them add parameters', async () => {
    stack.simulator.resetCalls();
    await stack.query('{ searchSongs(title: "a&limit=5", artistName: "b c=d") { slug } }');
    expect(stack.simulator.calls[0]!.query).toEqual({ title: 'a&limit=5', artistName: 'b c=d' });
  });

  it('refuses a 10 KB slug before any upstream call', async () => {
    stack.simulator.resetCalls();
    const response = await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', {
      slug: 'a/'.repeat(5_000),
    });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.simulator.calls).toHaveLength(0);
  });
});
