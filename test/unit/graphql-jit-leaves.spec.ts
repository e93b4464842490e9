/**
 * graphql-jit as patched here (patches/graphql-jit+0.8.9.patch): a leaf's value that is there is
 * serialized without building its error's locations and path, a list item or a resolver's answer
 * that is no promise is completed without callbacks made for it, and the levels of a resolver's
 * `info.path` above its innermost list are made once, not at every call. The answers must stay
 * graphql-js's, the odd cases included: null in a non-null leaf, an Error as a value, a value
 * the scalar refuses, promises among list items, at every depth of nested lists. (Where a
 * non-null error ends a list, graphql-js leaves the items after it unread, graphql-jit reads and
 * reports them: a difference of graphql-jit's own, so each list here ends at its non-null error.)
 */
import {
  buildSchema,
  type ExecutionResult,
  execute,
  type GraphQLObjectType,
  GraphQLScalarType,
  type GraphQLSchema,
  parse,
  responsePathAsArray,
} from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { describe, expect, it } from 'vitest';

/** A day as `YYYY-MM-DD`; anything else is refused, as the gateway's Date scalar refuses it. */
const Day = new GraphQLScalarType({
  name: 'Day',
  serialize(value) {
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return value;
    throw new TypeError(`Day cannot represent ${String(value)}`);
  },
});

function schemaWith(): GraphQLSchema {
  const schema = buildSchema(`
    scalar Day
    type Point { day: Day! count: Int note: Day label: String code: String! where: String! }
    type Series { name: String! points: [Point!] grid: [[Point]] }
    type Query { series: [Series]! }
  `);
  Object.assign(schema.getType('Day')!, { serialize: Day.serialize });
  // Resolved fields: a resolver that throws what the row holds when it is an Error, and answers
  // anything else as it is (a promise included).
  const fields = (schema.getType('Point') as GraphQLObjectType).getFields();
  for (const name of ['label', 'code'] as const)
    fields[name]!.resolve = (row: Record<string, unknown>) => {
      const value = row[name];
      if (value instanceof Error) throw value;
      return value;
    };
  // The field's path as its resolver is told it: the compiled form shares the levels above a
  // field's innermost list between calls, and each call must still be told its own.
  fields.where!.resolve = (_row, _args, _context, info) => responsePathAsArray(info.path).join('.');
  return schema;
}

const POINT = 'day count note label code where';
const QUERY = `{ series { name points { ${POINT} } grid { ${POINT} } } }`;

/** Both executors' answers, errors as what a client reads of them. */
async function bothAnswers(series: unknown): Promise<[ExecutionResult, ExecutionResult]> {
  const schema = schemaWith();
  const document = parse(QUERY);
  const compiled = compileQuery(schema, document, undefined, {
    disablingCapturingStackErrors: true,
  });
  if (!isCompiledQuery(compiled)) throw new Error('did not compile');
  const rootValue = { series };
  const interpreted = await execute({ schema, document, rootValue });
  const jit = await compiled.query(rootValue, {}, {});
  return [jit, interpreted];
}

const readable = (result: ExecutionResult) => ({
  data: result.data,
  errors: (result.errors ?? [])
    .map((error) => ({ message: error.message, path: error.path, locations: error.locations }))
    .sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path))),
});

const point = (
  day: unknown,
  count: unknown = 1,
  note: unknown = null,
  label: unknown = 'a label',
  code: unknown = 'c',
) => ({ day, count, note, label, code });

describe('graphql-jit leaves and list items, as patched', () => {
  it('the patch is in place: a leaf checks for its errors only when its value is missing', () => {
    // `debug` keeps the generated source; graphql-jit's typings leave it out.
    const debug = { debug: true } as Parameters<typeof compileQuery>[3];
    const compiled = compileQuery(schemaWith(), parse(QUERY), undefined, debug);
    const source = (compiled as { __DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation?: string })
      .__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation;
    expect(source).toContain('LeafSlowPath');
    expect(source).toContain('.rt.leaf(');
    expect(source).toContain('SharedPath');
  });

  it('values that are there answer as graphql-js answers them', async () => {
    const series = [
      {
        name: 'a',
        points: [point('2026-01-01', 3, '2026-01-02'), point('2026-01-02', null)],
        grid: [[point('2026-02-01')], [], null],
      },
    ];
    const [jit, interpreted] = await bothAnswers(series);
    expect(readable(jit)).toEqual(readable(interpreted));
    expect(jit.errors).toBeUndefined();
  });

  it('null in a non-null leaf, an Error as a value, a refused value: the same errors at the same paths', async () => {
    const series = [
      {
        name: 'a',
        points: [point('2026-01-01', new Error('count failed'), 'not a day'), point(null)],
        grid: [
          [point('2026-02-01', 1, 'not a day'), point(new Error('day failed'))],
          [point('2026-02-02'), null, point(null)],
        ],
      },
      { name: 'b', points: [point('2026-03-01', 7, new Error('note failed'))], grid: null },
      { name: 'c', points: [point('nope')], grid: [[point('also nope')]] },
    ];
    const [jit, interpreted] = await bothAnswers(series);
    expect(readable(jit)).toEqual(readable(interpreted));
    expect(readable(jit).errors.map((error) => error.path)).toContainEqual([
      'series',
      0,
      'grid',
      1,
      2,
      'day',
    ]);
  });

  it('resolvers that answer, throw, or answer promises that settle either way', async () => {
    const series = [
      {
        name: 'a',
        points: [
          point('2026-01-01', 1, null, new Error('label failed')),
          point('2026-01-02', 1, null, Promise.resolve('later')),
          point('2026-01-03', 1, null, Promise.reject(new Error('label rejected'))),
        ],
        grid: [
          [point('2026-02-01', 1, null, 'x', Promise.reject(new Error('code rejected')))],
          [
            point('2026-02-02', 1, null, 'y', Promise.resolve('z')),
            point('2026-02-03', 1, null, 'w', null),
          ],
        ],
      },
    ];
    series.push({
      name: 'b',
      points: [point('2026-01-04', 1, null, undefined, new Error('code failed'))],
      grid: [],
    });
    const [jit, interpreted] = await bothAnswers(series);
    expect(readable(jit)).toEqual(readable(interpreted));
    expect(readable(jit).errors.map((error) => error.message)).toEqual(
      expect.arrayContaining(['label failed', 'label rejected', 'code failed', 'code rejected']),
    );
  });

  it('promises among list items, resolved and rejected, beside items that are values', async () => {
    const series = [
      {
        name: 'a',
        points: [Promise.resolve(point('2026-01-01')), point('2026-01-02')],
        grid: [
          [Promise.resolve(point('2026-02-01')), Promise.reject(new Error('item failed'))],
          [point('2026-02-02')],
        ],
      },
    ];
    const [jit, interpreted] = await bothAnswers(series);
    expect(readable(jit)).toEqual(readable(interpreted));
  });
});
