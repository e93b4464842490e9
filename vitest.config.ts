import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql ships both .mjs and .js; libraries loaded as CommonJS would get a second copy
  // ("Cannot use GraphQLSchema from another module"), so everything uses the CommonJS one.
  resolve: { alias: { graphql: 'graphql/index.js' } },
  test: {
    include: ['test/**/*.spec.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Each spec file starts its own simulator and gateway on ephemeral ports; two cores run two files at once.
    maxWorkers: 2,
  },
});
