/** No argument can change which upstream path is requested. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const HOSTILE = ['../admin', 'a/b', '%2e%2e', '..', '.', 'a?b=c', 'a#b', 'x%2Fy', 'émeute ✓', ' spaced ', 'a\\b'];

describe('path segments', () => {
  it.each(HOSTILE)('artist(slug: %j) requests exactly /api/v1/artists/<that slug>', async (slug) => {
    stack.simulator.resetCalls();
    const response = await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug });
    expect(response.body.data).toEqual({ artist: null });
    expect(response.body.errors?.[0]).toMatchObject({ path: ['artist'], extensions: { code: 'NOT_FOUND' } });
    expect(stack.simulator.calls).toHaveLength(1);
    expect(stack.simulator.calls[0]!.segments).toEqual(['api', 'v1', 'artists', slug]);
  });

  it('keeps a song slug one segment in the fact endpoint too', async () => {
    stack.simulator.resetCalls();
    await stack.query('query ($slug: String!) { song(slug: $slug) { title } }', { slug: '../../artists/x' });
    expect(stack.simulator.calls.map((c) => c.segments)).toEqual([['api', 'v1', 'songs', '../../artists/x']]);
  });

  it('encodes query values instead of letting them add parameters', async () => {
    stack.simulator.resetCalls();
    await stack.query('{ searchSongs(title: "a&limit=5", artistName: "b c=d") { slug } }');
    expect(stack.simulator.calls[0]!.query).toEqual({ title: 'a&limit=5', artistName: 'b c=d' });
  });

  it('refuses a 10 KB slug before any upstream call', async () => {
    stack.simulator.resetCalls();
    const response = await stack.query('query ($slug: String!) { artist(slug: $slug) { name } }', { slug: 'a/'.repeat(5_000) });
    expect(response.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(stack.simulator.calls).toHaveLength(0);
  });
});
