import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';

/** A PGlite dump of the migrated schema; every test database starts from it. */
export async function pgliteTemplate(): Promise<Blob> {
  return new Blob([await readFile(inject('pgliteTemplate'))]);
}

/** True when the run has a PostgreSQL server (CI sets TEST_DATABASE_URL). */
export function hasPostgres(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL && inject('pgTemplateDb'));
}

/** A fresh PostgreSQL database copied from the migrated template; drop it when done. */
export async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const base = process.env.TEST_DATABASE_URL!;
  const name = `podtext_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplateDb')}`);
  await admin.end();
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
