/**
 * Every field says what it reads from the upstream, on itself (its
 * `upstream` option, src/schema/field-reads.ts), or is a plain property
 * read (Pothos `t.expose…`). The cost estimate and the cold fan-out know only
 * what is declared: a field that reads the upstream and declared nothing
 * would be estimated at 0 calls. So every other field must declare, even to
 * say that it reads nothing (`READS_NOTHING`).
 */
import SchemaBuilder from '@pothos/core';
import {
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isObjectType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  fieldReadsOf,
  type Knows,
  objectReadsOf,
  ownCalls,
  READS_NOTHING,
} from '../src/schema/field-reads.js';
import { schema } from '../src/schema/index.js';
import UpstreamPlugin from '../src/schema/upstream-plugin.js';

type Field = GraphQLField<unknown, unknown>;

/** Every field of the schema's object types (interface fields never resolve), as `Type.field`. */
function fieldsOf(graphqlSchema: GraphQLSchema): [string, Field][] {
  return Object.values(graphqlSchema.getTypeMap())
    .filter(isObjectType)
    .filter((type) => !type.name.startsWith('__'))
    .flatMap((type) =>
      Object.values(type.getFields()).map((field): [string, Field] => [
        `${type.name}.${field.name}`,
        field,
      ]),
    );
}

/** Pothos' mark of `t.expose…`: the field answers its parent's property, with no resolver of ours. */
const isPropertyRead = (field: Field) => field.extensions.pothosExposedField !== undefined;

/** The fields that neither declare their reads nor are plain property reads. */
function undeclaredFields(graphqlSchema: GraphQLSchema): string[] {
  return fieldsOf(graphqlSchema)
    .filter(([, field]) => fieldReadsOf(field) === undefined && !isPropertyRead(field))
    .map(([name]) => name);
}

/** The levels a parent may hold of an object of this type, or of each type it may be. */
function levelsOf(type: GraphQLNamedType): Knows[][] {
  const types = isAbstractType(type) ? schema.getPossibleTypes(type) : [type];
  return types.map((possible) =>
    isObjectType(possible)
      ? (objectReadsOf(possible)?.levels.map((level) => level.holds) ?? [])
      : [],
  );
}

describe('declared upstream reads', () => {
  it('every field declares its reads, or is a plain property read', () => {
    expect(undeclaredFields(schema)).toEqual([]);
  });

  it('catches a field with a resolver of its own that declares nothing', () => {
    const builder = new SchemaBuilder<{ Context: object }>({ plugins: [UpstreamPlugin] });
    const Thing = builder.objectRef<{ name: string; slug: string }>('Thing').implement({
      fields: (t) => ({
        name: t.exposeString('name'),
        slug: t.string({ upstream: READS_NOTHING, resolve: (thing) => thing.slug }),
        // The planted omission: it could read anything, and it says nothing.
        followers: t.int({ resolve: () => 1 }),
      }),
    });
    builder.queryType({
      fields: (t) => ({
        thing: t.field({
          type: Thing,
          upstream: { calls: 1 },
          resolve: () => ({ name: 'a', slug: 'a' }),
        }),
        undeclaredRoot: t.string({ resolve: () => 'x' }),
      }),
    });
    expect(undeclaredFields(builder.toSchema()).sort()).toEqual([
      'Query.undeclaredRoot',
      'Thing.followers',
    ]);
  });

  it('a field that names a read counts its calls', () => {
    const uncounted = fieldsOf(schema)
      .filter(([, field]) => {
        const reads = fieldReadsOf(field);
        const names = reads?.read ?? reads?.bySlug ?? reads?.pages;
        return names !== undefined && ownCalls(reads, {}) < 1;
      })
      .map(([name]) => name);
    expect(uncounted).toEqual([]);
  });

  it('what a field needs of its object is a level its type declares', () => {
    const wrong: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      const levels = levelsOf(type)[0] ?? [];
      for (const field of Object.values(type.getFields())) {
        const needs = fieldReadsOf(field)?.needs;
        if (needs !== undefined && !levels.includes(needs))
          wrong.push(`${type.name}.${field.name} needs ${needs}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('what a field hands down is a level of the type it returns', () => {
    const wrong: string[] = [];
    for (const [name, field] of fieldsOf(schema)) {
      const reads = fieldReadsOf(field);
      const returned = getNamedType(field.type);
      const check = (knows: Knows | undefined, type: GraphQLNamedType | undefined) => {
        if (knows === undefined || knows === 'record') return;
        if (type === undefined || levelsOf(type).some((levels) => !levels.includes(knows)))
          wrong.push(`${name} hands down ${knows}`);
      };
      check(reads?.knows, returned);
      const nodes = isObjectType(returned) ? returned.getFields().nodes : undefined;
      check(reads?.connection, nodes === undefined ? undefined : getNamedType(nodes.type));
    }
    expect(wrong).toEqual([]);
  });

  it('every connection page says which of its fields are its items', () => {
    const connections = fieldsOf(schema)
      .filter(([, field]) => fieldReadsOf(field)?.connection !== undefined)
      .map(([, field]) => getNamedType(field.type));
    expect(connections.length).toBeGreaterThan(0);
    for (const connection of connections) {
      if (!isObjectType(connection)) throw new Error(`${connection.name} is not an object type`);
      const { edges, nodes } = connection.getFields();
      expect(edges && fieldReadsOf(edges)?.relay, connection.name).toBe('edges');
      expect(nodes && fieldReadsOf(nodes)?.relay, connection.name).toBe('nodes');
      const edge = edges && getNamedType(edges.type);
      const node = isObjectType(edge) ? edge.getFields().node : undefined;
      expect(node && fieldReadsOf(node)?.relay, edge?.name).toBe('node');
    }
  });

  it("the cold fan-out of artist(slug:) starts exactly the reads of the artist's fields that need only its slug", () => {
    const artist = schema.getType('Artist');
    if (!isObjectType(artist)) throw new Error('no Artist type');
    const bySlug = Object.values(artist.getFields())
      .filter((field) => fieldReadsOf(field)?.bySlug !== undefined)
      .map((field) => field.name);
    expect(bySlug.sort()).toEqual(['history', 'milestones', 'songs']);
  });
});
