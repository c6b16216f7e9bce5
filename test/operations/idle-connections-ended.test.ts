import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { MIGRATION_LOCK } from '../../src/infra/db/migrate.js';
import { openDatabase } from '../../src/infra/db/open-database.js';
import { freshPostgresDatabase, hasPostgres } from '../support/databases.js';

async function endSessions(dbUrl: string): Promise<number> {
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  try {
    const r = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1`, [new URL(dbUrl).pathname.slice(1)]);
    return r.rowCount ?? 0;
  } finally {
    await admin.end();
  }
}

// An 'error' the pool cannot hand to anyone stops the whole process (vitest
// reports it as an unhandled error and the run fails), so these cases assert
// by running at all, and then that the database is usable again.
describe.skipIf(!hasPostgres())('database connections PostgreSQL ends while they are idle', () => {
  it('before the first query (the migration session, back in the pool): the process goes on and the next query reconnects', async () => {
    const fresh = await freshPostgresDatabase();
    const db = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
    try {
      expect(db.poolStats!().idle).toBe(1);
      expect(await endSessions(fresh.url)).toBe(1);
      await expect.poll(() => db.poolStats!().total).toBe(0);
      expect(await db.prisma.show.count()).toBeGreaterThanOrEqual(0);
    } finally {
      await db.close();
      await fresh.drop();
    }
  });

  it("the migration session, ended while it waits for another process's migrations: the start fails with the reason, the process goes on", async () => {
    const fresh = await freshPostgresDatabase();
    const other = new pg.Client({ connectionString: fresh.url });
    await other.connect();
    try {
      // Another process is migrating: it holds the lock every migration run takes.
      await other.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK})`);
      const opening = openDatabase({ databaseUrl: fresh.url, migrate: true, poolSize: 2 });
      opening.catch(() => undefined);
      const waiting = async () =>
        (await other.query(`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND query LIKE '%pg_advisory_lock%'`)).rows.map((r) => r.pid as number);
      await expect.poll(async () => (await waiting()).length).toBe(1);
      await other.query('SELECT pg_terminate_backend($1)', [(await waiting())[0]]);
      await expect(opening).rejects.toThrow(/terminat/i);
    } finally {
      await other.end();
      await fresh.drop();
    }
  });

  it('while the pool closes (the database dropped at once, as a test or an operator does): nothing is left to stop the process', async () => {
    for (let round = 0; round < 5; round++) {
      const fresh = await freshPostgresDatabase();
      const db = await openDatabase({ databaseUrl: fresh.url, migrate: false, poolSize: 2 });
      await Promise.all([db.prisma.show.count(), db.prisma.episode.count()]);
      await db.close();
      // pool.end() resolves before its sessions have ended; the drop ends what is left.
      await fresh.drop();
    }
    await new Promise((r) => setTimeout(r, 200));
  });
});
