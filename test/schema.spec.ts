import { readFileSync } from 'node:fs';
import {
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isScalarType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { printSchemaWithCost } from '../src/schema/cost-directives.js';
import { schema } from '../src/schema/index.js';
import { contractDifferences, contractSchema } from './support/contract.js';

const read = (path: string) => readFileSync(new URL(path, import.meta.url), 'utf8');

describe('schema.graphql', () => {
  it('is the printed Pothos schema (run `npm run schema` when this fails)', () => {
    expect(read('../schema.graphql')).toBe(`${printSchemaWithCost(schema)}\n`);
  });

  it('contains the whole public contract with the same names, nullability and list shapes', () => {
    expect(
      contractDifferences(contractSchema(read('./fixtures/schema-contract.graphql')), schema),
    ).toEqual([]);
  });

  it('has the contract copy identical to the shared design, when that is at hand', () => {
    let shared: string;
    try {
      shared = readFileSync(
        new URL('../../shared/design/schema-contract.graphql', import.meta.url),
        'utf8',
      );
    } catch {
      return; // A clone without shared/ beside it: the fixture stands alone.
    }
    expect(read('./fixtures/schema-contract.graphql')).toBe(shared);
  });

  it('describes every type, field, argument and enum value', () => {
    const undocumented: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith('__') ||
        (isScalarType(type) && ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name))
      )
        continue;
      if (!type.description) undocumented.push(type.name);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          if (!field.description) undocumented.push(`${type.name}.${field.name}`);
          for (const arg of 'args' in field ? field.args : []) {
            if (!arg.description) undocumented.push(`${type.name}.${field.name}(${arg.name})`);
          }
        }
      }
      if (isEnumType(type)) {
        for (const value of type.getValues())
          if (!value.description) undocumented.push(`${type.name}.${value.name}`);
      }
    }
    expect(undocumented).toEqual([]);
  });
});

describe('the contract check', () => {
  it('notices a missing field and a changed nullability', () => {
    const contract = contractSchema(read('./fixtures/schema-contract.graphql'));
    const broken = contractSchema(
      read('./fixtures/schema-contract.graphql')
        .replace('  followers: SafeInt\n', '')
        .replace(
          'searchSongs(title: String!, artistName: String!): [Song!]',
          'searchSongs(title: String!, artistName: String!): [Song]',
        ),
    );
    expect(contractDifferences(contract, broken).sort()).toEqual([
      'Query.searchSongs is [Song], contract says [Song!]',
      'missing field Artist.followers',
    ]);
  });
});
