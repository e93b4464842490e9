/** Assembles the schema: each import adds one family of types to the builder. */
import { GraphQLDeferDirective, GraphQLStreamDirective } from '@graphql-tools/utils';
import { lexicographicSortSchema, specifiedDirectives } from 'graphql';
import { builder } from './builder.js';
import { costDirective, listSizeDirective } from './cost-directives.js';
import { withFieldPaths } from './field-paths.js';
import { withPlainPropertyReads } from './plain-property-reads.js';
import './scalars.js';
import './enums.js';
import './stats.js';
import './artist.js';
import './song.js';
import './album.js';
import './milestone.js';
import './chart.js';
import './rankings.js';
import './usage.js';
import './live.js';

// @defer and @stream are served by Yoga's defer-stream plugin; declared here too, they are printed into
// schema.graphql, so that codegen and GraphiQL accept the documents that use them. @cost and
// @listSize are declared for the cost tooling that reads schema.graphql (cost-directives.ts).
export const schema = withPlainPropertyReads(
  withFieldPaths(
    lexicographicSortSchema(
      builder.toSchema({
        directives: [
          ...specifiedDirectives,
          GraphQLDeferDirective,
          GraphQLStreamDirective,
          costDirective,
          listSizeDirective,
        ],
      }),
    ),
  ),
);
