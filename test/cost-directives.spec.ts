/**
 * schema.graphql carries IBM's `@cost`/`@listSize` (src/schema/cost-directives.ts), printed from
 * the declarations the run-time estimate walks. What a standard cost tool computes from the file
 * alone (test/support/ibm-cost.ts) is held here against the estimate on the reference queries:
 * never less, and the same except where a root field loads an artist's whole profile, which IBM's
 * per-field weights cannot see (each field needing the profile is weighed its load).
 */
import { readdirSync, readFileSync } from 'node:fs';
import {
  buildSchema,
  type GraphQLSchema,
  getNamedType,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  parse,
  valueFromASTUntyped,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { REFERENCE_QUERIES } from '../bench/reference-queries.js';
import { schema } from '../src/schema/index.js';
import { estimateUpstreamCost } from '../src/schema/upstream-cost.js';
import { ibmFieldCost } from './support/ibm-cost.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');
const printed: GraphQLSchema = buildSchema(read('../schema.graphql'));

interface Reference {
  readonly name: string;
  readonly query: string;
  readonly variables: Record<string, unknown>;
}

const slug = { slug: 'burna-boy' };
const README_EXAMPLE = /```graphql\n([\s\S]*?)```/.exec(read('../README.md'))?.[1] ?? '';
const REFERENCES: readonly Reference[] = [
  ...REFERENCE_QUERIES.map((r) => ({ ...r, variables: r.variables?.('burna-boy') ?? {} })),
  { name: 'README: a whole artist page in one query', query: README_EXAMPLE, variables: slug },
  ...readdirSync(new URL('../examples/operations', import.meta.url))
    .filter((file) => file.endsWith('.graphql'))
    .map((file) => ({
      name: `examples/operations/${file}`,
      query: read(`../examples/operations/${file}`),
      variables: slug,
    })),
  // docs/protection.md's examples, written out whole.
  {
    name: 'docs/protection.md: a chart of 200 entries, each with its song',
    query: '{ chart(name: "a", territory: "UK") { entries { song { title } } } }',
    variables: {},
  },
  {
    name: 'docs/protection.md: 100 artists with their followers',
    query: '{ topArtistsByStreams(limit: 100) { artist { followers } } }',
    variables: {},
  },
];

/** Each reference's estimate and the field cost of the printed directives. */
const FIGURES: Readonly<Record<string, { estimate: number; directives: number }>> = {
  // Under `artist(slug:)` the profile is loaded whole: followers, awards, chart positions and top
  // songs cost nothing more there, where the directives weigh each one its profile load.
  'artist page: profile, awards, chart positions, top songs, songs, history, milestones': {
    estimate: 4,
    directives: 8,
  },
  'top 50 artists by streams, names only': { estimate: 1, directives: 1 },
  "top 50 artists by streams with each artist's monthlyListeners": { estimate: 1, directives: 1 },
  "top 50 artists by streams with each artist's followers": { estimate: 51, directives: 51 },
  "top 20 songs with each song's artist name": { estimate: 1, directives: 1 },
  'recent milestones with artist names': { estimate: 1, directives: 1 },
  "recent milestones with each artist's awards": { estimate: 51, directives: 51 },
  'a chart of 50 entries without song': { estimate: 1, directives: 1 },
  'a chart of 50 entries with song': { estimate: 51, directives: 51 },
  'README: a whole artist page in one query': { estimate: 3, directives: 6 },
  'examples/operations/ApiUsage.graphql': { estimate: 0, directives: 0 },
  'examples/operations/ArtistPage.graphql': { estimate: 14, directives: 18 },
  'examples/operations/BrowseArtists.graphql': { estimate: 1, directives: 1 },
  'examples/operations/ChartWithTrends.graphql': { estimate: 2, directives: 2 },
  'examples/operations/Leaderboards.graphql': { estimate: 2, directives: 2 },
  'examples/operations/MilestoneCrossed.graphql': { estimate: 0, directives: 0 },
  'examples/operations/RecentMilestones.graphql': { estimate: 1, directives: 1 },
  'docs/protection.md: a chart of 200 entries, each with its song': {
    estimate: 201,
    directives: 201,
  },
  'docs/protection.md: 100 artists with their followers': { estimate: 101, directives: 101 },
};

describe('IBM cost directives in schema.graphql', () => {
  it('declares @cost and @listSize as the cost directive specification defines them', () => {
    const cost = printed.getDirective('cost');
    expect(cost?.isRepeatable).toBe(false);
    expect(cost?.args.map((a) => `${a.name}: ${a.type}`)).toEqual(['weight: String!']);
    expect([...(cost?.locations ?? [])].sort()).toEqual([
      'ARGUMENT_DEFINITION',
      'ENUM',
      'FIELD_DEFINITION',
      'INPUT_FIELD_DEFINITION',
      'OBJECT',
      'SCALAR',
    ]);
    const listSize = printed.getDirective('listSize');
    expect(listSize?.isRepeatable).toBe(false);
    expect(listSize?.locations).toEqual(['FIELD_DEFINITION']);
    expect(Object.fromEntries(listSize?.args.map((a) => [a.name, `${a.type}`]) ?? [])).toEqual({
      assumedSize: 'Int',
      slicingArguments: '[String!]',
      sizedFields: '[String!]',
      requireOneSlicingArgument: 'Boolean',
    });
    expect(listSize?.args.find((a) => a.name === 'requireOneSlicingArgument')?.defaultValue).toBe(
      true,
    );
  });

  it('uses them only where the specification allows (§9.1.1, §9.2)', () => {
    const wrong: string[] = [];
    const isList = (type: unknown) =>
      isListType(isNonNullType(type) ? (type as { ofType: unknown }).ofType : type);
    for (const type of Object.values(printed.getTypeMap())) {
      if (isInterfaceType(type)) {
        for (const field of Object.values(type.getFields()))
          if (field.astNode?.directives?.some((d) => d.name.value === 'cost'))
            wrong.push(`${type.name}.${field.name}: @cost on an interface field`);
      }
      if (!isObjectType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const node = field.astNode?.directives?.find((d) => d.name.value === 'listSize');
        if (node === undefined) continue;
        const args = Object.fromEntries(
          (node.arguments ?? []).map((a) => [a.name.value, valueFromASTUntyped(a.value)]),
        );
        const at = `${type.name}.${field.name}`;
        const sized = (args.sizedFields as string[] | undefined) ?? [];
        const slicing = (args.slicingArguments as string[] | undefined) ?? [];
        if (sized.length === 0 && !isList(field.type)) wrong.push(`${at}: not a list`);
        const returned = getNamedType(field.type);
        for (const name of sized) {
          const child = isObjectType(returned) ? returned.getFields()[name] : undefined;
          if (child === undefined || !isList(child.type)) wrong.push(`${at}: sizes ${name}`);
        }
        for (const name of slicing) {
          const arg = field.args.find((a) => a.name === name);
          if (arg === undefined || getNamedType(arg.type).name !== 'Int' || isList(arg.type))
            wrong.push(`${at}: slices by ${name}`);
          else if (args.assumedSize !== undefined && arg.defaultValue !== undefined)
            wrong.push(`${at}: assumedSize beside ${name}'s default`);
        }
        if (args.assumedSize !== undefined && slicing.length > 0)
          if (args.requireOneSlicingArgument !== false)
            wrong.push(`${at}: assumedSize requires requireOneSlicingArgument: false`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('has a figure for every reference query', () => {
    expect(REFERENCES.map((r) => r.name).sort()).toEqual(Object.keys(FIGURES).sort());
    expect(README_EXAMPLE).toContain('artist(slug: $slug)');
  });

  it.each(REFERENCES)('agrees with the estimate on $name', ({ name, query, variables }) => {
    const document = parse(query);
    const figures = {
      estimate: estimateUpstreamCost(schema, document, undefined, variables).upstreamCalls,
      directives: ibmFieldCost(printed, document, variables),
    };
    expect(figures).toEqual(FIGURES[name]);
    // A client that budgets by the directives is never refused for a cost it did not see.
    expect(figures.directives).toBeGreaterThanOrEqual(figures.estimate);
  });
});
