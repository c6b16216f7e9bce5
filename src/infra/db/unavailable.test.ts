import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseProblem, databaseTrouble, databaseUnavailable, isDatabaseUnavailable } from './unavailable.js';

describe('a database error that means "try again"', () => {
  it('is a refused or dropped connection: 503 unavailable with a time to retry', async () => {
    // A port nobody listens on: the driver's own refusal.
    const port = await new Promise<number>((resolve) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as net.AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const refused = await new pg.Client({ connectionString: `postgres://x:y@127.0.0.1:${port}/z` }).connect().catch((e: unknown) => e);
    expect(isDatabaseUnavailable(refused)).toBe(true);
    expect(databaseUnavailable(refused)).toMatchObject({ code: 'unavailable', details: { retryAfter: 5 } });
    // Prisma's wrapping of the driver's error, as seen when PostgreSQL ends a pooled session.
    const wrapped = { name: 'PrismaClientKnownRequestError', code: 'P2039', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57P01', originalCode: '57P01' } } } };
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
  });

  it('tells a busy database (a statement over its limit, a lock not granted, every connection held) from an unreachable one', () => {
    const timedOut = { name: 'PrismaClientKnownRequestError', code: 'P2010', meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind: 'postgres', code: '57014', message: 'canceling statement due to statement timeout' } } } };
    expect(databaseTrouble(timedOut)).toBe('busy');
    expect(isDatabaseUnavailable(timedOut)).toBe(true);
    expect(databaseUnavailable(timedOut)).toMatchObject({ code: 'unavailable', message: 'The database is too busy to answer right now; try again in 5 seconds.', details: { retryAfter: 5 } });
    expect(databaseTrouble({ code: '55P03', message: 'could not obtain lock on row in relation "accounts"' })).toBe('busy');
    const full = new Error('all 10 database connections are in use by calls the database has not answered yet; none came free within 10 s');
    expect(databaseProblem(full)).toMatch(/^database: busy: all 10/);
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(databaseTrouble(refused)).toBe('unreachable');
    expect(databaseUnavailable(refused)?.message).toMatch(/unreachable/);
    expect(databaseProblem(new Error('migrations not applied'))).toBe('database: migrations not applied');
  });

  it('is not a fault of the statement or the data, which stays a 500 or the domain error it was', async () => {
    const db = await PGlite.create();
    await db.exec('CREATE TABLE t (id int PRIMARY KEY)');
    await db.exec('INSERT INTO t VALUES (1)');
    for (const sql of ['INSERT INTO t VALUES (1)', 'SELECT nope FROM t', 'SELECT 1/0']) {
      const err = await db.query(sql).catch((e: unknown) => e);
      expect(isDatabaseUnavailable(err), sql).toBe(false);
    }
    await db.close();
    expect(isDatabaseUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(databaseUnavailable(null)).toBeNull();
  });
});
