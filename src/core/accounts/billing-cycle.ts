import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import * as ledger from '../ledger.js';
import { isPlanName, plans } from '../pricing.js';
import { inTransaction } from '../transaction.js';

/** A cycle lasts one calendar month from its start (the 31st rolls to the month's last day). */
export function cycleEnd(start: Date): Date {
  const end = new Date(start);
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + 1);
  const last = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, last));
  return end;
}

/**
 * Starts a new cycle for every account whose cycle has ended: the balance is
 * set to the plan's credits (no rollover) by one ledger entry named after the
 * cycle, so a second run, or a second process, changes nothing.
 * @returns the ids of the accounts reset.
 */
export async function resetDueCycles(db: PrismaClient, clock: Clock, onChanged: (accountId: string) => Promise<void>): Promise<string[]> {
  const now = clock.now();
  const candidates = await db.account.findMany({ where: { cycleStartedAt: { lte: new Date(now.getTime() - 27 * 86_400_000) } }, select: { id: true } });
  const reset: string[] = [];
  for (const { id } of candidates) {
    const did = await inTransaction(db, async (tx) => {
      const [acc] = await tx.$queryRaw<{ plan: string; cycle_started_at: Date }[]>`
        SELECT plan, cycle_started_at FROM accounts WHERE id = ${id}::uuid FOR UPDATE`;
      if (!acc) return false;
      let start = acc.cycle_started_at;
      let changed = false;
      while (cycleEnd(start) <= now) {
        start = cycleEnd(start);
        const plan = plans[isPlanName(acc.plan) ? acc.plan : 'free'];
        await ledger.resetCycle(tx, id, plan.monthlyCredits, start.toISOString().slice(0, 10));
        changed = true;
      }
      if (changed) await tx.account.update({ where: { id }, data: { cycleStartedAt: start } });
      return changed;
    });
    if (did) {
      reset.push(id);
      await onChanged(id);
    }
  }
  return reset;
}
