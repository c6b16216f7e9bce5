import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';
import { PrismaPGlite } from 'pglite-prisma-adapter';
import { PrismaClient } from '../../generated/prisma/client.js';
import { tracedAdapter } from '../tracing/db-spans.js';
import { tracing } from '../tracing/tracing.js';
import { lockDataDir } from './data-dir-lock.js';
import { ensurePrivateDir } from './private-dir.js';
import { ConnectFailed } from './open-failure.js';
import { migrate, type SqlRunner } from './migrate.js';
import { createPostgresPool, unbounded } from './postgres-pool.js';

export type Db = PrismaClient;

/** An open database: the typed client plus what Prisma does not cover. */
export interface Database {
  prisma: PrismaClient;
  kind: 'pglite' | 'postgres';
  /** Raw statements outside Prisma (migrations, advisory locks). */
  sql: SqlRunner;
  /** PostgreSQL only: a dedicated connection string for LISTEN. */
  listenUrl?: string;
  /** Bulk loads: one COPY of many rows. */
  copyRows: CopyRows;
  /** PostgreSQL only: the pool's connections now (metrics). */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** PGlite only: the whole data directory as one gzipped tarball, consistent (a backup). */
  dump?(): Promise<Blob>;
  close(): Promise<void>;
}

/**
 * Appends rows to `table` with one `COPY` statement, several times faster
 * than an `INSERT` of the same rows. `rows` is in PostgreSQL's binary COPY
 * format, fields in the order of `columns`. All rows or none: a unique
 * violation throws (code 23505) and leaves the table as it was.
 */
export type CopyRows = (table: string, columns: readonly string[], rows: Uint8Array) => Promise<void>;

function copyStatement(table: string, columns: readonly string[], source: string): string {
  const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;
  return `COPY ${quote(table)} (${columns.map(quote).join(', ')}) FROM ${source} WITH (FORMAT binary)`;
}

export interface OpenOptions {
  /** PostgreSQL URL; when absent PGlite is used. */
  databaseUrl?: string;
  /** PGlite data directory; absent means in memory. */
  pgliteDir?: string;
  /** A PGlite data-directory dump to start from (tests copy a migrated template). */
  pgliteTemplate?: Blob;
  /** Apply migrations before returning. Default: true. */
  migrate?: boolean;
  /** PostgreSQL pool size. Default: 10. */
  poolSize?: number;
  /**
   * PostgreSQL `statement_timeout` of the pool's sessions, in ms; 0: none.
   * Migrations and bulk copies run without it. Default: 0.
   */
  statementTimeoutMs?: number;
}

export { CONNECT_TIMEOUT_MS, IDLE_IN_TRANSACTION_MS } from './postgres-pool.js';

/** Extensions Podtext's migrations use; loaded into PGlite, created on PostgreSQL. */
export const pgliteExtensions = { pg_trgm, unaccent };

// PGlite's own start parameters, with a smaller buffer pool: its default of
// 128 MB is touched at start and stays resident, while the operating system's
// file cache serves the data directory nearly as fast. This keeps a server
// with 100k shows under 400 MB (BENCHMARKS.md).
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

function pgliteRunner(db: PGlite): SqlRunner {
  return {
    exec: async (sql) => {
      await db.exec(sql);
    },
    query: async <T>(sql: string, params?: unknown[]) => (await db.query<T>(sql, params)).rows,
  };
}

/** A connection out of the pool has no listener of the pool's: one ended under it would stop the process. */
const heldError = (): void => undefined;

function poolRunner(pool: pg.Pool): { runner: SqlRunner; client: Promise<pg.PoolClient> } {
  // Migrations need one session for the advisory lock and BEGIN/COMMIT.
  const client = pool.connect().then(
    (c) => c.on('error', heldError),
    (err: Error) => {
      throw new ConnectFailed(err);
    },
  );
  // Awaited by the first statement, which may come after a refused connection has already failed it.
  client.catch(() => undefined);
  return {
    client,
    runner: {
      exec: async (sql) => {
        await (await client).query(sql);
      },
      query: async <T>(sql: string, params?: unknown[]) =>
        (await (await client).query(sql, params)).rows as T[],
    },
  };
}

/**
 * Opens PGlite (embedded, persisted under `pgliteDir`) or PostgreSQL and
 * applies the migrations.
 */
export async function openDatabase(options: OpenOptions): Promise<Database> {
  // With tracing on, every statement of the data layer is a span; off, the adapter is untouched.
  const traced = <F extends PrismaPg | PrismaPGlite>(adapter: F, engine: 'postgres' | 'pglite'): F =>
    tracing().enabled ? (tracedAdapter(adapter, tracing(), engine) as F) : adapter;
  const shouldMigrate = options.migrate ?? true;
  if (options.databaseUrl) {
    const pool = createPostgresPool({ connectionString: options.databaseUrl, max: options.poolSize ?? 10, statementTimeoutMs: options.statementTimeoutMs ?? 0 });
    const { runner, client } = poolRunner(pool);
    try {
      if (shouldMigrate) await unbounded(await client, () => migrate(runner));
    } finally {
      (await client).off('error', heldError).release();
    }
    const prisma = new PrismaClient({ adapter: traced(new PrismaPg(pool), 'postgres') });
    return {
      prisma,
      kind: 'postgres',
      sql: {
        exec: async (sql) => {
          await pool.query(sql);
        },
        query: async <T>(sql: string, params?: unknown[]) => (await pool.query(sql, params)).rows as T[],
      },
      listenUrl: options.databaseUrl,
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      copyRows: async (table, columns, rows) => {
        const client = (await pool.connect()).on('error', heldError);
        try {
          await unbounded(client, () => pipeline(Readable.from([Buffer.from(rows.buffer, rows.byteOffset, rows.byteLength)]), client.query(copyFromStdin(copyStatement(table, columns, 'STDIN')))));
        } finally {
          client.off('error', heldError).release();
        }
      },
      close: async () => {
        await prisma.$disconnect();
        await pool.end();
      },
    };
  }
  if (options.pgliteDir) await ensurePrivateDir(options.pgliteDir);
  // One process per data directory: a second PGlite on it would not see the
  // first one's writes, and the first would overwrite the second's.
  const lock = options.pgliteDir ? await lockDataDir(options.pgliteDir) : null;
  let lite: PGlite;
  try {
    lite = await PGlite.create({
      dataDir: options.pgliteDir,
      loadDataDir: options.pgliteTemplate,
      extensions: pgliteExtensions,
      startParams: PGLITE_START_PARAMS,
    });
  } catch (err) {
    await lock?.release();
    throw err;
  }
  const runner = pgliteRunner(lite);
  if (shouldMigrate) {
    try {
      await migrate(runner);
    } catch (err) {
      await lite.close();
      await lock?.release();
      throw err;
    }
  }
  const prisma = new PrismaClient({ adapter: traced(new PrismaPGlite(lite), 'pglite') });
  return {
    prisma,
    kind: 'pglite',
    sql: runner,
    dump: () => lite.dumpDataDir('gzip'),
    // PGlite reads COPY input from the blob handed to the query as the file /dev/blob.
    copyRows: async (table, columns, rows) => {
      await lite.query(copyStatement(table, columns, `'/dev/blob'`), [], { blob: new Blob([rows as Uint8Array<ArrayBuffer>]) });
    },
    close: async () => {
      await prisma.$disconnect();
      await lite.close();
      await lock?.release();
    },
  };
}
