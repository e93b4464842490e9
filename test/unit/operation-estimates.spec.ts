/**
 * Estimates kept per document (src/schema/operation-estimates.ts) by the
 * variables the estimate read: whatever the requests, a kept figure is the
 * one a fresh estimate gives, and variables that cannot change it (a slug)
 * are not read at all.
 */

import fc from 'fast-check';
import { parse } from 'graphql';
import { expect, it } from 'vitest';
import { ARTIST_PAGE_QUERY } from '../../bench/reference-queries.js';
import { schema } from '../../src/schema/index.js';
import { OperationEstimates } from '../../src/schema/operation-estimates.js';
import { estimateUpstreamCost } from '../../src/schema/upstream-cost.js';

/** Operations whose estimates hang on their variables in every way the schema allows. */
const OPERATIONS = [
  ARTIST_PAGE_QUERY,
  `query Board($limit: Int, $slug: String!) {
    topArtistsByStreams(limit: $limit) { artist { followers } }
    artist(slug: $slug) { name }
  }`,
  `query Songs($slug: String!, $first: Int = 5, $last: Int, $after: String) {
    artist(slug: $slug) { songs(first: $first, last: $last, after: $after) { nodes { title album { title } } } }
  }`,
  `query Nodes($ids: [ID!]!) { nodes(ids: $ids) { id } }`,
];

const fresh = (query: string, variables: Record<string, unknown>) =>
  estimateUpstreamCost(schema, parse(query), undefined, variables);

it('reads no variable an estimate cannot hang on: one artist page estimate serves every artist', () => {
  expect(fresh(ARTIST_PAGE_QUERY, { slug: 'burna-boy' }).variablesRead).toEqual([]);
  expect(fresh(OPERATIONS[1]!, { slug: 'wizkid', limit: 5 }).variablesRead).toEqual(['limit']);
});

it('answers every request with the figure a fresh estimate gives, whatever came before', () => {
  const size = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer({ min: -1, max: 150 }),
  );
  const request = fc.record(
    {
      operation: fc.integer({ min: 0, max: OPERATIONS.length - 1 }),
      slug: fc.constantFrom('a', 'b', 'c'),
      limit: size,
      first: size,
      last: size,
      after: fc.constantFrom(undefined, 'b2Zmc2V0OjQ', 'x'),
      ids: fc.array(fc.constantFrom('QXJ0aXN0OmE', 'U29uZzpi'), { maxLength: 30 }),
    },
    { requiredKeys: ['operation', 'slug', 'ids'] },
  );
  fc.assert(
    fc.property(fc.array(request, { minLength: 1, maxLength: 40 }), (requests) => {
      const estimates = new OperationEstimates(schema);
      for (const { operation, ...variables } of requests) {
        const query = OPERATIONS[operation]!;
        const given = Object.fromEntries(
          Object.entries(variables).filter(([, value]) => value !== undefined),
        );
        expect(estimates.of({ query, variables: given })).toBe(fresh(query, given).upstreamCalls);
      }
    }),
  );
});
