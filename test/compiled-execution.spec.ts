/**
 * A document runs on graphql-js the first time and compiled (graphql-jit) from its second: each
 * later answer must be the first one's, errors included (codes, `locations`, paths, masking).
 * Each run adds a variable the operation does not declare, so no stored answer stands in for it;
 * the cost report differs (the later runs' records are held), so `extensions` are left out. The
 * compiled runs' data is compared as written too: its members in the order the document selects them.
 */
import { readFileSync } from 'node:fs';
import {
  type DocumentNode,
  type FragmentDefinitionNode,
  Kind,
  parse,
  type SelectionSetNode,
} from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GraphQLResponse, type Stack, startStack } from './support/stack.js';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(() => stack.close());

const example = (name: string) =>
  readFileSync(new URL(`../examples/operations/${name}.graphql`, import.meta.url), 'utf8');

/**
 * The value with each object's members in the order its selection set names them (fields,
 * then what each fragment adds where it is spread), for documents without abstract types.
 */
function inSelectionOrder(document: DocumentNode, value: unknown): unknown {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION)
      fragments.set(definition.name.value, definition);
  const operation = document.definitions.find(
    (definition) => definition.kind === Kind.OPERATION_DEFINITION,
  )!;
  const order = (sets: SelectionSetNode[], at: unknown): unknown => {
    if (Array.isArray(at)) return at.map((item) => order(sets, item));
    if (at === null || typeof at !== 'object') return at;
    const ordered: Record<string, unknown> = {};
    const nested = new Map<string, SelectionSetNode[]>();
    const add = (set: SelectionSetNode) => {
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const name = selection.alias?.value ?? selection.name.value;
          if (!nested.has(name)) nested.set(name, []);
          if (selection.selectionSet) nested.get(name)!.push(selection.selectionSet);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) add(selection.selectionSet);
        else add(fragments.get(selection.name.value)!.selectionSet);
      }
    };
    for (const set of sets) add(set);
    for (const [name, below] of nested)
      if (name in at) ordered[name] = order(below, (at as Record<string, unknown>)[name]);
    return ordered;
  };
  return order([operation.selectionSet], value);
}

let run = 0;
const threeTimes = async (query: string, variables: Record<string, unknown> = {}) =>
  (await threeTimesAll(query, variables))[0]!;
async function threeTimesAll(query: string, variables: Record<string, unknown> = {}) {
  const answers: { status: number; body: Pick<GraphQLResponse['body'], 'data' | 'errors'> }[] = [];
  for (let time = 0; time < 3; time++) {
    const { status, body } = await stack.query(query, { ...variables, run: run++ });
    answers.push({ status, body: { data: body.data, errors: body.errors } });
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  return answers;
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

  it('the compiled runs write their data in the order the document selects it', async () => {
    // graphql-js's executor may not: it gives a field its place when the field's value arrives.
    const slug = stack.simulator.data.allArtists()[0]!.slug;
    const page = `query Page($slug: String!) {
      artist(slug: $slug) {
        ...Head
        topSongs { album { title } slug title dailyStreams }
        songs(first: 5) { pageInfo { endCursor hasNextPage } nodes { slug title } totalCount }
        ... on Artist { history { date dailyStreams } milestones { song { title } threshold } }
        listeners: monthlyListeners
        ...Head
      }
      charts { totalEntries name }
    }
    fragment Head on Artist { name slug followers }`;
    for (const query of [
      page,
      ...['BrowseArtists', 'Leaderboards', 'RecentMilestones'].map(example),
    ]) {
      const answers = await threeTimesAll(query, { slug });
      expect(answers[0]!.status).toBe(200);
      expect(answers[0]!.body.errors).toBeUndefined();
      const inOrder = JSON.stringify(inSelectionOrder(parse(query), answers[0]!.body.data));
      expect(JSON.stringify(answers[1]!.body.data)).toBe(inOrder);
      expect(JSON.stringify(answers[2]!.body.data)).toBe(inOrder);
    }
  });

  it('variables left to their defaults (ChartWithTrends)', async () => {
    const answer = await threeTimes(example('ChartWithTrends'));
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });
});
