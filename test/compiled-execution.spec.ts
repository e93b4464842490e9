/**
 * A document runs on graphql-js the first time and compiled (graphql-jit) from its second: each
 * later answer must be the first one's, errors included (codes, `locations`, paths, masking).
 * Each run adds a variable the operation does not declare, so no stored answer stands in for it;
 * the cost report differs (the later runs' records are held), so `extensions` are left out.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLResponse, type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

let run = 0;
async function threeTimes(query: string, variables: Record<string, unknown> = {}) {
  const answers: { status: number; body: Pick<GraphQLResponse['body'], 'data' | 'errors'> }[] = [];
  for (let time = 0; time < 3; time++) {
    const { status, body } = await stack.query(query, { ...variables, run: run++ });
    answers.push({ status, body: { data: body.data, errors: body.errors } });
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  return answers[0]!;
}

describe('compiled execution answers as graphql-js does', () => {
  it('partial data with a located NOT_FOUND at its path', async () => {
    const top = stack.simulator.data.allArtists()[0]!;
    const answer = await threeTimes(
      'query ($top: String!) { top: artist(slug: $top) { name } gone: artist(slug: "no-such-artist") { name } }',
      { top: top.slug },
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ top: { name: top.name }, gone: null });
    expect(answer.body.errors?.[0]).toMatchObject({
      path: ['gone'],
      locations: [{ line: 1, column: 58 }],
      extensions: { code: 'NOT_FOUND' },
    });
  });

  it('a variable graphql-js cannot coerce: 400 BAD_USER_INPUT with its location, every time', async () => {
    const answer = await threeTimes(
      'query ($limit: Int) { chart(name: "x", territory: "UK", limit: $limit) { name } }',
      {
        limit: 2 ** 31,
      },
    );
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]).toMatchObject({
      locations: [{ line: 1, column: 8 }],
      extensions: { code: 'BAD_USER_INPUT' },
    });
  });

  it('variables left to their defaults (ChartWithTrends)', async () => {
    const query = readFileSync(
      new URL('../examples/operations/ChartWithTrends.graphql', import.meta.url),
      'utf8',
    );
    const answer = await threeTimes(query);
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });
});
