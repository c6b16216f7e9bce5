import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { migrate, type SqlRunner } from './migrate.js';
import { pgliteExtensions } from './open-database.js';

function runner(db: PGlite): SqlRunner {
  return { exec: async (s) => void (await db.exec(s)), query: async (s, p) => (await db.query(s, p)).rows as never };
}

describe('migrations', () => {
  it('apply once; a second run applies nothing', async () => {
    const db = await PGlite.create({ extensions: pgliteExtensions });
    const first = await migrate(runner(db));
    expect(first.length).toBeGreaterThan(1);
    expect(await migrate(runner(db))).toEqual([]);
    const tables = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('accounts', 'ledger_entries', 'shows')");
    expect(tables.rows[0]!.n).toBe(3);
    await db.close();
  });

  it('a failing migration rolls back and names itself; a changed applied migration is refused', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'podtext-migrations-'));
    await mkdir(path.join(dir, '001_ok'));
    await writeFile(path.join(dir, '001_ok', 'migration.sql'), 'CREATE TABLE a (x int);');
    await mkdir(path.join(dir, '002_bad'));
    await writeFile(path.join(dir, '002_bad', 'migration.sql'), 'CREATE TABLE b (x int); SELECT nope();');
    const db = await PGlite.create();
    await expect(migrate(runner(db), dir)).rejects.toThrow(/002_bad/);
    expect((await db.query("SELECT to_regclass('b') AS t")).rows[0]).toEqual({ t: null });
    await writeFile(path.join(dir, '001_ok', 'migration.sql'), 'CREATE TABLE a (x int, y int);');
    await expect(migrate(runner(db), dir)).rejects.toThrow(/001_ok was changed/);
    await db.close();
  });
});
