import { defineConfig } from 'vitest/config';

export default defineConfig({
  // graphql 16 ships CJS and ESM builds; Node loads the CJS one for our dependencies,
  // so tests must too, or GraphQL types come from two realms.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['test/global-setup.ts'],
    // Fails a file that leaves a server, socket, worker or timer running.
    setupFiles: ['test/leak-guard.ts'],
  },
});
