import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseTrouble, databaseUnavailable } from '../../src/infra/db/unavailable.js';
import { startTestPodtext, type TestPodtext } from '../support/podtext.js';

let t: TestPodtext;
beforeAll(async () => {
  t = await startTestPodtext();
});
afterAll(() => t.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Prisma's transaction limits (a transaction open past its time limit, or one
// that could not start within its wait) are the database being too busy, as a
// statement over its time limit is: 503 with a time to retry, not a 500.
describe('a transaction Prisma gave up on', () => {
  it('past its time limit is "busy"', async () => {
    const err = await t.podtext.services.db
      .$transaction(async (tx) => {
        await sleep(300);
        return tx.account.count();
      }, { timeout: 50 })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('P2028');
    expect(databaseTrouble(err)).toBe('busy');
    expect(databaseUnavailable(err)).toMatchObject({ code: 'unavailable', details: { retryAfter: 5 } });
  });

  it('that could not start within its wait is "busy"', async () => {
    const db = t.podtext.services.db;
    // The embedded database runs one transaction at a time: the second waits for the first.
    const holding = db.$transaction(async (tx) => {
      await sleep(400);
      return tx.account.count();
    }, { timeout: 5_000 });
    await sleep(20);
    const err = await db.$transaction(async (tx) => tx.account.count(), { maxWait: 50 }).catch((e: unknown) => e);
    await holding;
    expect((err as { code?: string }).code).toBe('P2028');
    expect(databaseTrouble(err)).toBe('busy');
  });

  it('used after its end by a fault in the code stays a 500', async () => {
    let leaked: Parameters<Parameters<typeof t.podtext.services.db.$transaction>[0]>[0] | undefined;
    await t.podtext.services.db.$transaction(async (tx) => {
      leaked = tx;
    });
    const err = await leaked!.account.count().catch((e: unknown) => e);
    expect(databaseTrouble(err)).toBeNull();
  });
});
