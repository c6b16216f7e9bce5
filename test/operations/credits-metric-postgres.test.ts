import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ledger from '../../src/core/ledger.js';
import { inTransaction } from '../../src/core/transaction.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

// On PostgreSQL a ledger entry's id is taken when it is inserted, not when its
// transaction commits: a charge can become visible after a later one. The
// credits counter must still count it, exactly once.
describe.skipIf(!hasPostgres())('podtext_credits_total on PostgreSQL', () => {
  let t: TestPodtext;
  beforeAll(async () => {
    t = await startTestPodtext({ postgres: true });
  });
  afterAll(() => t?.close());

  async function charged(reason: string): Promise<number> {
    const text = await (await t.request('/metrics')).text();
    const line = text.split('\n').find((l) => l.startsWith(`podtext_credits_total{kind="charge",reason="${reason}"} `));
    return line ? Number(line.split(' ')[1]) : 0;
  }

  it('counts a charge that commits after a later one was scraped', async () => {
    const { db } = t.podtext.services;
    const a = await t.account({ credits: 20 });
    const b = await t.account({ credits: 20 });
    const before = await charged('unlock');
    let commit!: () => void;
    const held = new Promise<void>((resolve) => (commit = resolve));
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    // The first charge takes its id, then waits before committing.
    const slow = inTransaction(db, async (tx) => {
      await ledger.charge(tx, a.accountId, 3, `unlock:${a.accountId}:slow`, 'unlock');
      inserted();
      await held;
    }, 1);
    await insertedYet;
    await inTransaction(db, (tx) => ledger.charge(tx, b.accountId, 2, `unlock:${b.accountId}:fast`, 'unlock'));
    expect(await charged('unlock')).toBe(before + 2);
    commit();
    await slow;
    expect(await charged('unlock')).toBe(before + 5);
    expect(await charged('unlock')).toBe(before + 5);
  });

  it('never counts a charge whose transaction rolled back', async () => {
    const { db } = t.podtext.services;
    const a = await t.account({ credits: 20 });
    const before = await charged('unlock');
    await expect(inTransaction(db, async (tx) => {
      await ledger.charge(tx, a.accountId, 7, `unlock:${a.accountId}:undone`, 'unlock');
      throw new Error('rolled back');
    }, 1)).rejects.toThrow('rolled back');
    await inTransaction(db, (tx) => ledger.charge(tx, a.accountId, 1, `unlock:${a.accountId}:kept`, 'unlock'));
    expect(await charged('unlock')).toBe(before + 1);
    expect(await charged('unlock')).toBe(before + 1);
  });
});
