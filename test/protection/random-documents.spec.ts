/**
 * Random documents over the whole schema, property-based (fast-check, fixed
 * seed, bounded time): any root field, with any arguments (mostly plausible:
 * real slugs, small limits, the enums' values; sometimes hostile: huge or
 * negative numbers, odd text, a value of the wrong type) and any selection
 * below it three levels deep, gets a well-formed answer: every error with a
 * stable code, never a masked internal error, nothing of the gateway's
 * insides. Where hostile-input.spec.ts aims at each argument, this walks the
 * fields and the links between types that no hand-written query visits.
 */
import fc from 'fast-check';
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
} from 'graphql';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { schema } from '../../src/schema/index.js';
import { SERVER_KEY, type Stack, startStack } from '../support/stack.js';
import { expectWellFormed } from '../support/well-formed.js';

const SEED = 20_261_124;
const MAX_DEPTH = 3;

let stack: Stack;
let slugs: string[];
beforeAll(async () => {
  // A day large enough that no document is refused for the budget: every resolver gets to run.
  stack = await startStack({ gateway: { dailyLimit: 1_000_000 } });
  const top = await stack.query(
    '{ topArtistsByStreams(limit: 3) { artist { slug topSongs { slug } } } }',
  );
  const ranked = (top.body.data?.topArtistsByStreams ?? []) as {
    artist: { slug: string; topSongs: { slug: string }[] };
  }[];
  slugs = ranked.flatMap(({ artist }) => [artist.slug, ...artist.topSongs.map((s) => s.slug)]);
});
afterAll(async () => {
  await stack.close();
});

const oddText = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom('', ' ', '../..', '%2F', '\u0000', '?a=b', '#x', 'x'.repeat(300), '-1'),
);

/** A GraphQL literal of `type`: plausible mostly, sometimes hostile or of the wrong type. */
function literal(type: GraphQLInputType, depth: number): fc.Arbitrary<string> {
  const required = isNonNullType(type);
  const inner = required ? type.ofType : type;
  const wrongType = fc.constantFrom('"x"', '1.5', '[]');
  const plausible = plausibleLiteral(inner, depth);
  return fc.oneof(
    { weight: 12, arbitrary: plausible },
    { weight: 1, arbitrary: required ? wrongType : fc.constant('null') },
    { weight: 1, arbitrary: wrongType },
  );
}

function plausibleLiteral(type: GraphQLInputType, depth: number): fc.Arbitrary<string> {
  if (isNonNullType(type)) return plausibleLiteral(type.ofType, depth);
  if (isListType(type))
    return fc
      .array(literal(type.ofType, depth + 1), { maxLength: 3 })
      .map((items) => `[${items.join(', ')}]`);
  if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((value) => value.name));
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    if (depth > MAX_DEPTH || fields.length === 0) return fc.constant('{}');
    return fc
      .tuple(
        ...fields.map((field) => fc.option(literal(field.type, depth + 1), { nil: undefined })),
      )
      .map((values) =>
        fields.flatMap((field, index) =>
          values[index] === undefined ? [] : [`${field.name}: ${values[index]}`],
        ),
      )
      .map((members) => `{ ${members.join(', ')} }`);
  }
  switch (type.name) {
    case 'Int':
    case 'SafeInt':
      return fc
        .oneof(
          { weight: 6, arbitrary: fc.integer({ min: 0, max: 30 }) },
          { weight: 1, arbitrary: fc.integer() },
          { weight: 1, arbitrary: fc.constantFrom(-1, 101, 2 ** 31 - 1, -(2 ** 31)) },
        )
        .map(String);
    case 'Float':
      return fc.double({ noNaN: true, noDefaultInfinity: true }).map(String);
    case 'Boolean':
      return fc.boolean().map(String);
    default:
      // String, ID, Date and the like: a real slug mostly, so the resolvers below it run.
      return fc
        .oneof({ weight: 3, arbitrary: fc.constantFrom(...slugs, 'NG', '2026-01-01') }, oddText)
        .map((text) => JSON.stringify(text));
  }
}

/** One to three aliased fields of `type`, each with arguments and, for an object, its own selection. */
function selection(type: GraphQLObjectType, depth: number): fc.Arbitrary<string> {
  const fields = Object.values(type.getFields()) as GraphQLField<unknown, unknown>[];
  const field = fc.constantFrom(...fields).chain((chosen) => {
    const args =
      chosen.args.length === 0
        ? fc.constant('')
        : fc
            .tuple(
              ...chosen.args.map((arg) =>
                isNonNullType(arg.type)
                  ? literal(arg.type, 0)
                  : fc.option(literal(arg.type, 0), { nil: undefined }),
              ),
            )
            .map((values) => {
              const given = chosen.args.flatMap((arg, index) =>
                values[index] === undefined ? [] : [`${arg.name}: ${values[index]}`],
              );
              return given.length === 0 ? '' : `(${given.join(', ')})`;
            });
    const named = getNamedType(chosen.type);
    const below = isLeafType(named)
      ? fc.constant('')
      : isObjectType(named) && depth < MAX_DEPTH
        ? selection(named, depth + 1).map((inner) => ` { ${inner} }`)
        : fc.constant(' { __typename }');
    return fc.tuple(args, below).map(([given, sub]) => `${chosen.name}${given}${sub}`);
  });
  return fc
    .array(field, { minLength: 1, maxLength: 3 })
    .map((chosen) => chosen.map((text, index) => `f${index}: ${text}`).join(' '));
}

it('any root field, arguments and selection get a well-formed answer, and the gateway goes on', async () => {
  expect(slugs.length).toBeGreaterThan(0);
  const documents = selection(schema.getQueryType()!, 0).map((fields) => `{ ${fields} }`);
  let asked = 0;
  await fc.assert(
    fc.asyncProperty(documents, async (document) => {
      asked += 1;
      expectWellFormed(await stack.query(document), [SERVER_KEY, stack.simulator.url]);
    }),
    { seed: SEED, numRuns: 600, interruptAfterTimeLimit: 20_000, markInterruptAsFailure: false },
  );
  expect(asked).toBeGreaterThan(20);
  const after = await stack.query('{ __typename }');
  expect(after.body.data).toEqual({ __typename: 'Query' });
});
