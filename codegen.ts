/**
 * graphql-codegen: typed documents for the example operations, from the
 * checked-in schema.graphql (no running server needed). Frontends copy this
 * setup with their own `documents`.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['examples/operations/*.graphql'],
  ignoreNoDocuments: false,
  // ESM output: relative imports carry their .js extension, as NodeNext resolution requires.
  emitLegacyCommonJSImports: false,
  generates: {
    'examples/generated/': {
      preset: 'client',
      config: {
        useTypeImports: true,
        enumsAsTypes: true,
        scalars: {
          SafeInt: 'number',
          Date: 'string',
          URL: 'string',
        },
      },
      presetConfig: {
        fragmentMasking: false,
        // The manifest of hashes that persisted-operations clients send instead of the query text.
        persistedDocuments: { hashAlgorithm: 'sha256' },
      },
    },
  },
};

export default config;
