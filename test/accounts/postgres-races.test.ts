import { describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/errors.js';
import * as ledger from '../../src/core/ledger.js';
import { inTransaction } from '../../src/core/transaction.js';
import { hasPostgres } from '../support/databases.js';
import { twoProcessesOnPostgres } from '../support/podtext.js';

// Races only mean something with real concurrent connections: PostgreSQL.
describe.skipIf(!hasPostgres())('on PostgreSQL', () => {
  const pair = twoProcessesOnPostgres();

  it('500 concurrent charges against 10 credits: exactly 10 succeed, ledger sum = balance', async () => {
    const acc = await pair.a.account({ credits: 10 });
    const { db } = pair.a.podtext.services;
    const results = await Promise.all(
      Array.from({ length: 500 }, (_, i) =>
        inTransaction(db, (tx) => ledger.charge(tx, acc.accountId, 1, `race:${acc.accountId}:${i}`, 'race')).then(
          () => 'ok',
          (e) => (e instanceof DomainError ? e.code : `bug: ${e}`),
        ),
      ),
    );
    expect(results.filter((r) => r === 'ok')).toHaveLength(10);
    expect(results.filter((r) => r === 'insufficient_credits')).toHaveLength(490);
    const account = await db.account.findUniqueOrThrow({ where: { id: acc.accountId } });
    const sum = await db.ledgerEntry.aggregate({ where: { accountId: acc.accountId }, _sum: { amount: true } });
    expect(account.credits).toBe(0);
    expect(sum._sum.amount).toBe(0);
  });

  it('two grants at once that together would overflow the balance: one passes, the other is refused naming credits, nothing lost', async () => {
    const acc = await pair.a.account({ credits: 0 });
    const grant = (service: typeof pair.a.podtext.services.accounts) =>
      service.grantCredits(acc.email, 1_500_000_000, 'race').then(
        () => 'ok',
        (e) => (e instanceof DomainError ? `${e.code}: ${e.message}` : `bug: ${e}`),
      );
    const results = await Promise.all([grant(pair.a.podtext.services.accounts), grant(pair.b.podtext.services.accounts)]);
    expect(results.sort()).toEqual(['invalid_request: credits: the balance (1500000000) may grow to at most 2147483647', 'ok']);
    const { db } = pair.a.podtext.services;
    const account = await db.account.findUniqueOrThrow({ where: { id: acc.accountId } });
    const sum = await db.ledgerEntry.aggregate({ where: { accountId: acc.accountId }, _sum: { amount: true } });
    expect(account.credits).toBe(1_500_000_000);
    expect(sum._sum.amount).toBe(account.credits);
  });

  it('after rotation in one process, the old key gets 401 on the next request in the other', async () => {
    // Over real sockets, as clients reach two processes.
    const urlA = await pair.a.podtext.listen();
    const urlB = await pair.b.podtext.listen();
    const me = (url: string, key: string) => fetch(`${url}/api/v1/me`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status);
    for (let i = 0; i < 20; i++) {
      const acc = await pair.a.account();
      expect(await me(urlB, acc.key)).toBe(200);
      const res = await fetch(`${urlA}/api/v1/key/rotate`, { method: 'POST', headers: { authorization: `Bearer ${acc.key}` } });
      const { key } = (await res.json()) as { key: string };
      expect(await me(urlB, acc.key)).toBe(401);
      expect(await me(urlB, key)).toBe(200);
    }
  });

  it('50 parallel requests with 1 remaining, across 2 processes: exactly 1 passes', async () => {
    const acc = await pair.a.account();
    const { db } = pair.a.podtext.services;
    // 999 of the 1,000 daily requests already used today.
    await db.$executeRaw`INSERT INTO request_counters (account_id, day, count) VALUES (${acc.accountId}::uuid, (now() AT TIME ZONE 'UTC')::date, 999)`;
    const calls = Array.from({ length: 50 }, (_, i) => (i % 2 ? pair.a : pair.b).api('GET', '/me', { key: acc.key }).then((r) => r.status));
    const statuses = await Promise.all(calls);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 429)).toHaveLength(49);
  });

  it('a credit change in one process is seen by /me in the other', async () => {
    const acc = await pair.a.account({ credits: 3 });
    expect(((await (await pair.b.api('GET', '/me', { key: acc.key })).json()) as { credits: number }).credits).toBe(3);
    await pair.a.podtext.services.accounts.grantCredits(acc.email, 4, 'test');
    await new Promise((r) => setTimeout(r, 100));
    expect(((await (await pair.b.api('GET', '/me', { key: acc.key })).json()) as { credits: number }).credits).toBe(7);
  });

  it('migrations are safe to run from two processes at once', async () => {
    const { openDatabase } = await import('../../src/infra/db/open-database.js');
    const { freshPostgresDatabase } = await import('../support/databases.js');
    const fresh = await freshPostgresDatabase();
    try {
      const [x, y] = await Promise.all([openDatabase({ databaseUrl: fresh.url }), openDatabase({ databaseUrl: fresh.url })]);
      const rows = await x.sql.query<{ n: number }>('SELECT count(*)::int AS n FROM _podtext_migrations');
      expect(rows[0]!.n).toBeGreaterThan(0);
      await x.close();
      await y.close();
    } finally {
      await fresh.drop();
    }
  });
});
