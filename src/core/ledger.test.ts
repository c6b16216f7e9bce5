import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../../test/support/databases.js';
import { type Database, openDatabase } from '../infra/db/open-database.js';
import { DomainError } from './errors.js';
import * as ledger from './ledger.js';
import { inTransaction } from './transaction.js';

let db: Database;
beforeAll(async () => {
  db = await openDatabase({ pgliteTemplate: await pgliteTemplate(), migrate: false });
});
afterAll(() => db.close());

async function newAccount(): Promise<string> {
  const id = randomUUID();
  await db.prisma.account.create({ data: { id, email: `${id}@example.com`, cycleStartedAt: new Date() } });
  return id;
}

async function state(accountId: string) {
  const account = await db.prisma.account.findUniqueOrThrow({ where: { id: accountId } });
  const entries = await db.prisma.ledgerEntry.findMany({ where: { accountId }, orderBy: { id: 'asc' } });
  return { balance: account.credits, entries };
}

describe('ledger', () => {
  it('posts a reference once: the second post is a duplicate and changes nothing', async () => {
    const id = await newAccount();
    const first = await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, 5, 'ref-1', 'five'));
    const second = await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, 5, 'ref-1', 'five again'));
    expect(first.duplicate).toBe(false);
    expect(second).toMatchObject({ duplicate: true, entry: { id: first.entry.id } });
    expect((await state(id)).balance).toBe(5);
  });

  it('never goes below zero: an oversized charge throws insufficient_credits and writes nothing', async () => {
    const id = await newAccount();
    await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, 2, `g-${id}`, 'two'));
    const err = await inTransaction(db.prisma, (tx) => ledger.charge(tx, id, 3, `c-${id}`, 'three')).catch((e) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(err).toMatchObject({ code: 'insufficient_credits', details: { required: 3, available: 2 } });
    expect(await state(id)).toMatchObject({ balance: 2, entries: [expect.objectContaining({ kind: 'grant' })] });
  });

  it('refunds a charge at most once, however often the failure is seen', async () => {
    const id = await newAccount();
    await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, 3, `g-${id}`, 'three'));
    await inTransaction(db.prisma, (tx) => ledger.charge(tx, id, 2, `c-${id}`, 'two'));
    for (let i = 0; i < 3; i++) await inTransaction(db.prisma, (tx) => ledger.refund(tx, `c-${id}`, 'failed'));
    const s = await state(id);
    expect(s.balance).toBe(3);
    expect(s.entries.filter((e) => e.kind === 'refund')).toHaveLength(1);
  });

  it('a cycle reset sets the balance to the allowance once; running it twice changes nothing', async () => {
    const id = await newAccount();
    await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, 17, `g-${id}`, 'seventeen'));
    await inTransaction(db.prisma, (tx) => ledger.resetCycle(tx, id, 10, '2026-07-01'));
    await inTransaction(db.prisma, (tx) => ledger.resetCycle(tx, id, 10, '2026-07-01'));
    const s = await state(id);
    expect(s.balance).toBe(10);
    expect(s.entries.filter((e) => e.kind === 'cycle_reset')).toEqual([expect.objectContaining({ amount: -7, balanceAfter: 10 })]);
  });

  /**
   * Model test: random command sequences against the real ledger and an
   * in-memory model. After every command: balance = model = ledger sum, never
   * negative, and each refund points at exactly one charge.
   * PODTEXT_FULL_MODEL=1 runs 200 × up to 1,000 commands; the default keeps CI quick.
   */
  it('matches an in-memory model over random command sequences', async () => {
    const full = process.env.PODTEXT_FULL_MODEL === '1';
    type Cmd = { op: 'grant' | 'charge' | 'refund' | 'reset'; n: number };
    const cmd = fc.oneof(
      fc.record({ op: fc.constant('grant' as const), n: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ op: fc.constant('charge' as const), n: fc.integer({ min: 1, max: 8 }) }),
      fc.record({ op: fc.constant('refund' as const), n: fc.nat(50) }),
      fc.record({ op: fc.constant('reset' as const), n: fc.integer({ min: 0, max: 30 }) }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: full ? 1000 : 40 }), async (cmds: Cmd[]) => {
        const id = await newAccount();
        let balance = 0;
        const charges: { ref: string; amount: number; refunded: boolean }[] = [];
        let step = 0;
        for (const c of cmds) {
          step++;
          const ref = `${id}:${step}`;
          if (c.op === 'grant') {
            await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, c.n, ref, 'grant'));
            balance += c.n;
          } else if (c.op === 'charge') {
            const ok = await inTransaction(db.prisma, (tx) => ledger.charge(tx, id, c.n, ref, 'charge')).then(
              () => true,
              (e) => {
                if (e instanceof DomainError && e.code === 'insufficient_credits') return false;
                throw e;
              },
            );
            expect(ok).toBe(balance >= c.n);
            if (ok) {
              balance -= c.n;
              charges.push({ ref, amount: c.n, refunded: false });
            }
          } else if (c.op === 'refund' && charges.length > 0) {
            const target = charges[c.n % charges.length]!;
            await inTransaction(db.prisma, (tx) => ledger.refund(tx, target.ref, 'refund'));
            if (!target.refunded) balance += target.amount;
            target.refunded = true;
          } else if (c.op === 'reset') {
            await inTransaction(db.prisma, (tx) => ledger.resetCycle(tx, id, c.n, `cycle-${step}`));
            balance = c.n;
          }
          const s = await state(id);
          expect(s.balance).toBe(balance);
          expect(s.balance).toBeGreaterThanOrEqual(0);
          expect(s.entries.reduce((sum, e) => sum + e.amount, 0)).toBe(s.balance);
          for (const r of s.entries.filter((e) => e.kind === 'refund')) {
            expect(s.entries.filter((e) => e.id === r.refundOf && e.kind === 'charge')).toHaveLength(1);
          }
        }
      }),
      { numRuns: 200 },
    );
  }, 600_000);
});
