import net from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { databaseUnavailable, isDatabaseUnavailable } from './unavailable.js';

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
