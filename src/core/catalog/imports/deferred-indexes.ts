import type { PrismaClient } from '../../../generated/prisma/client.js';

/**
 * Drops the non-unique indexes of `shows` (trigram search, popularity,
 * schedule) before a bulk load, recording how to rebuild each: building an
 * index once over millions of rows is several times cheaper than keeping it
 * up to date row by row. Unique indexes stay, since upserts rely on them.
 * Searches still work meanwhile, only slower.
 * @returns the names of the indexes set aside.
 */
export async function deferShowIndexes(db: PrismaClient): Promise<string[]> {
  const indexes = await db.$queryRawUnsafe<{ indexname: string; indexdef: string }[]>(
    `SELECT indexname, indexdef FROM pg_indexes
     WHERE schemaname = current_schema() AND tablename = 'shows' AND indexdef NOT LIKE 'CREATE UNIQUE INDEX%'`,
  );
  for (const index of indexes) {
    // Recorded before dropped, in one transaction: a crash cannot lose an index.
    await db.$transaction([
      db.$executeRawUnsafe(
        `INSERT INTO catalog_deferred_indexes (name, definition) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
        index.indexname,
        index.indexdef,
      ),
      db.$executeRawUnsafe(`DROP INDEX IF EXISTS "${index.indexname.replace(/"/g, '""')}"`),
    ]);
  }
  return indexes.map((i) => i.indexname);
}

/**
 * Rebuilds every index {@link deferShowIndexes} set aside, including those of
 * an import that never finished. Safe to run at any time.
 * @returns the names of the indexes rebuilt.
 */
export async function restoreDeferredIndexes(db: PrismaClient): Promise<string[]> {
  const deferred = await db.catalogDeferredIndex.findMany({ orderBy: { name: 'asc' } });
  for (const index of deferred) {
    await db.$transaction([
      db.$executeRawUnsafe(index.definition.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS ')),
      db.catalogDeferredIndex.delete({ where: { name: index.name } }),
    ]);
  }
  return deferred.map((i) => i.name);
}
