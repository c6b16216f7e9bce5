import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findUp } from '../find-up.js';

/** A minimal SQL runner both PGlite and node-postgres can provide. */
export interface SqlRunner {
  /** Runs one or more statements, no parameters. */
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** Where Podtext's migrations live: prisma/migrations/<name>/migration.sql. */
export const migrationsDir = findUp('prisma/migrations', fileURLToPath(import.meta.url));

/** Any fixed number: every Podtext process takes the same lock while migrating. */
export const MIGRATION_LOCK = 724_101;

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, 'migration.sql'), 'utf8');
      return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every migration not yet recorded in `_podtext_migrations`, each in its
 * own transaction. Safe to run twice and from two processes at once: on
 * PostgreSQL an advisory lock serialises the runners, and the second finds
 * nothing left to do.
 * @returns the names of the migrations it applied.
 */
export async function migrate(db: SqlRunner, dir: string = migrationsDir): Promise<string[]> {
  const migrations = await readMigrations(dir);
  await db.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await db.exec(`CREATE TABLE IF NOT EXISTS _podtext_migrations (
      name text PRIMARY KEY,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const rows = await db.query<{ name: string; checksum: string }>('SELECT name, checksum FROM _podtext_migrations');
    const applied = new Map(rows.map((r) => [r.name, r.checksum]));
    const done: string[] = [];
    for (const m of migrations) {
      const seen = applied.get(m.name);
      if (seen !== undefined) {
        if (seen !== m.checksum) {
          throw new Error(`Migration ${m.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await db.exec('BEGIN');
      try {
        await db.exec(m.sql);
        await db.query('INSERT INTO _podtext_migrations (name, checksum) VALUES ($1, $2)', [m.name, m.checksum]);
        await db.exec('COMMIT');
      } catch (err) {
        await db.exec('ROLLBACK');
        throw new Error(`Migration ${m.name} failed: ${(err as Error).message}`);
      }
      done.push(m.name);
    }
    return done;
  } finally {
    await db.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

/**
 * Migrations in `dir` that the database has not recorded (readiness: a
 * process started against a database another version migrated is not ready).
 */
export async function pendingMigrations(db: SqlRunner, dir: string = migrationsDir): Promise<string[]> {
  const names = (await readdir(dir, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name);
  const rows = await db.query<{ name: string }>('SELECT name FROM _podtext_migrations');
  const applied = new Set(rows.map((r) => r.name));
  return names.filter((n) => !applied.has(n)).sort();
}
