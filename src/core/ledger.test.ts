import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteTemplate } from '../../test/support/databases.js';
import { type Database, openDatabase } from '../infra/db/open-database.js';
import { DomainError } from './errors.js';
import * as ledger from './ledger.js';
import { prices } from './pricing.js';
import { inTransaction } from './transaction.js';
import { unlockInTransaction } from './unlock.js';

let db: Database;
const full = () => process.env.PODTEXT_CHAOS_FULL === '1';
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
   * Model test: random command sequences against the real ledger (and the
   * unlock rule on top of it) and an in-memory model. Commands: grant, unlock
   * (1 credit once per episode), transcription request (per-hour charge and an
   * optional fast-lane premium), refund of a request's charge or premium, AI
   * Search charge and its refund on failure, billing-cycle reset, and a repeat
   * of an earlier posting. After every command: balance = model = ledger sum,
   * never negative, and each refund points at exactly one charge, once.
   * CI runs 200 × up to 40 commands; `npm run bench -- chaos` sets
   * PODTEXT_CHAOS_FULL=1 for 200 × up to 1,000.
   */
  it('matches an in-memory model over random command sequences', async () => {
    type Cmd =
      | { op: 'grant' | 'reset' | 'aisearch' | 'refund' | 'repeat'; n: number }
      | { op: 'unlock'; episode: number }
      | { op: 'request'; hours: number; fast: boolean };
    const cmd: fc.Arbitrary<Cmd> = fc.oneof(
      fc.record({ op: fc.constant('grant' as const), n: fc.integer({ min: 1, max: 20 }) }),
      fc.record({ op: fc.constant('unlock' as const), episode: fc.nat(15) }),
      fc.record({ op: fc.constant('request' as const), hours: fc.integer({ min: 1, max: 4 }), fast: fc.boolean() }),
      fc.record({ op: fc.constant('aisearch' as const), n: fc.nat(3) }),
      fc.record({ op: fc.constant('refund' as const), n: fc.nat(1000) }),
      fc.record({ op: fc.constant('repeat' as const), n: fc.nat(1000) }),
      fc.record({ op: fc.constant('reset' as const), n: fc.integer({ min: 0, max: 30 }) }),
    );
    const insufficient = (e: unknown) => {
      if (e instanceof DomainError && e.code === 'insufficient_credits') return false;
      throw e;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(cmd, { minLength: 1, maxLength: full() ? 1000 : 40 }), async (cmds: Cmd[]) => {
        const id = await newAccount();
        let balance = 0;
        const unlocked = new Set<number>();
        // Charges that can be refunded, and every posting made (for repeats).
        const charges: { ref: string; amount: number; refunded: boolean }[] = [];
        const postings: { kind: 'grant' | 'charge'; ref: string; amount: number }[] = [];
        let step = 0;
        const charge = async (amount: number, ref: string) => {
          const ok = await inTransaction(db.prisma, (tx) => ledger.charge(tx, id, amount, ref, 'charge')).then(() => true, insufficient);
          expect(ok).toBe(balance >= amount);
          if (ok) {
            balance -= amount;
            charges.push({ ref, amount, refunded: false });
            postings.push({ kind: 'charge', ref, amount });
          }
          return ok;
        };
        for (const c of cmds) {
          step++;
          const ref = `${id}:${step}`;
          if (c.op === 'grant') {
            await inTransaction(db.prisma, (tx) => ledger.grant(tx, id, c.n, ref, 'grant'));
            balance += c.n;
            postings.push({ kind: 'grant', ref, amount: c.n });
          } else if (c.op === 'unlock') {
            const transcriptId = `${id.slice(0, 8)}${String(c.episode).padStart(8, '0')}`;
            const r = await inTransaction(db.prisma, (tx) => unlockInTransaction(tx, id, transcriptId, 'sample-episode-id')).then((x) => x.charged, insufficient);
            const expected = unlocked.has(c.episode) ? 0 : balance >= prices.unlock ? prices.unlock : false;
            expect(r).toBe(expected);
            if (r) {
              balance -= r as number;
              unlocked.add(c.episode);
            }
          } else if (c.op === 'request') {
            // As a transcription request: the per-hour charge and the premium in one transaction, all or nothing.
            const base = c.hours * prices.transcribePerHour;
            const premium = c.fast ? c.hours * (prices.fastTranscribePerHour - prices.transcribePerHour) : 0;
            const ok = await inTransaction(db.prisma, async (tx) => {
              await ledger.charge(tx, id, base, `job:${ref}`, 'request');
              if (premium) await ledger.charge(tx, id, premium, `premium:${ref}`, 'premium');
            }).then(() => true, insufficient);
            expect(ok).toBe(balance >= base + premium);
            if (ok) {
              balance -= base + premium;
              charges.push({ ref: `job:${ref}`, amount: base, refunded: false });
              if (premium) charges.push({ ref: `premium:${ref}`, amount: premium, refunded: false });
            }
          } else if (c.op === 'aisearch') {
            // An AI Search query is charged first; a failure (n = 0) refunds it.
            const ok = await charge(prices.aiSearchQuery, `aisearch:${ref}`);
            if (ok && c.n === 0) {
              await inTransaction(db.prisma, (tx) => ledger.refund(tx, `aisearch:${ref}`, 'AI Search failed'));
              balance += prices.aiSearchQuery;
              charges.at(-1)!.refunded = true;
            }
          } else if (c.op === 'refund' && charges.length > 0) {
            const target = charges[c.n % charges.length]!;
            await inTransaction(db.prisma, (tx) => ledger.refund(tx, target.ref, 'refund'));
            if (!target.refunded) balance += target.amount;
            target.refunded = true;
          } else if (c.op === 'repeat' && postings.length > 0) {
            // The same reference posted again (a retried request): a duplicate, nothing changes.
            const p = postings[c.n % postings.length]!;
            const again = await inTransaction(db.prisma, (tx) => (p.kind === 'grant' ? ledger.grant(tx, id, p.amount, p.ref, 'again') : ledger.charge(tx, id, p.amount, p.ref, 'again'))).catch(
              (e: unknown) => (insufficient(e), null),
            );
            if (again) expect(again.duplicate).toBe(true);
          } else if (c.op === 'reset') {
            await inTransaction(db.prisma, (tx) => ledger.resetCycle(tx, id, c.n, `cycle-${step}`));
            balance = c.n;
          }
          const s = await state(id);
          expect(s.balance).toBe(balance);
          expect(s.balance).toBeGreaterThanOrEqual(0);
          expect(s.entries.reduce((sum, e) => sum + e.amount, 0)).toBe(s.balance);
          const refunds = s.entries.filter((e) => e.kind === 'refund');
          expect(new Set(refunds.map((r) => r.refundOf)).size).toBe(refunds.length);
          for (const r of refunds) expect(s.entries.filter((e) => e.id === r.refundOf && e.kind === 'charge')).toHaveLength(1);
        }
      }),
      { numRuns: 200 },
    );
  }, full() ? 7_200_000 : 600_000);
});
