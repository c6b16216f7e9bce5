import type { CodegenConfig } from '@graphql-codegen/cli';

/** Types the GraphQL documents the tests send (test/graphql/operations.ts). */
const config: CodegenConfig = {
  schema: 'schema/schema.graphql',
  documents: ['test/**/*.ts', '!test/graphql/generated/**'],
  generates: {
    'test/graphql/generated/': {
      preset: 'client',
      config: { scalars: { DateTime: 'string' }, useTypeImports: true },
      presetConfig: { fragmentMasking: false },
    },
  },
  ignoreNoDocuments: true,
  // Node ESM needs the .js suffix on relative imports.
  emitLegacyCommonJSImports: false,
};

export default config;
