import { defineConfig } from 'prisma/config';

// Podtext applies prisma/migrations itself at start (src/infra/db/migrate.ts);
// the Prisma CLI is only used to generate the typed client.
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
});
