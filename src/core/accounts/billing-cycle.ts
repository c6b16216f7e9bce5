import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import * as ledger from '../ledger.js';
import { isPlanName, plans } from '../pricing.js';
import { inTransaction, type Tx } from '../transaction.js';

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

/** When an account's current cycle ends: the provider's period end if it set one, else a month from the start. */
export function accountCycleEnd(account: { cycleStartedAt: Date; cycleEndsAt: Date | null }): Date {
  return account.cycleEndsAt ?? cycleEnd(account.cycleStartedAt);
}

/**
 * Provider statuses under which the provider runs the account's cycles (each
 * paid invoice starts one), so the monthly timer leaves the account alone.
 */
export const PROVIDER_CYCLE_STATUSES = ['active', 'trialing', 'past_due'] as const;

/**
 * Starts a cycle in the caller's transaction: the balance becomes `allowance`
 * (no rollover) by one ledger entry whose reference names the cycle
 * (`cycleKey`: a date for the monthly timer, the invoice id for a paid
 * invoice), so starting the same cycle twice changes nothing. `endsAt` is the
 * provider's period end; null (default): one calendar month from `startedAt`.
 * @returns false when this cycle had already been started.
 */
export async function startCycle(tx: Tx, accountId: string, allowance: number, cycleKey: string, startedAt: Date, endsAt: Date | null = null): Promise<boolean> {
  const posted = await ledger.resetCycle(tx, accountId, allowance, cycleKey);
  if (posted.duplicate) return false;
  await tx.account.update({ where: { id: accountId }, data: { cycleStartedAt: startedAt, cycleEndsAt: endsAt, cycleAllowance: allowance } });
  return true;
}

/**
 * Starts every cycle of one account that ended by `now`, at the allowance of
 * its plan (Free accounts, admin-set plans, and paid plans that lapsed).
 * Accounts whose cycles the payment provider runs are skipped.
 * @returns whether a cycle started.
 */
export async function resetAccountIfDue(tx: Tx, accountId: string, now: Date): Promise<boolean> {
  const [acc] = await tx.$queryRaw<{ plan: string; cycle_started_at: Date; cycle_ends_at: Date | null; billing_status: string | null }[]>`
    SELECT plan, cycle_started_at, cycle_ends_at, billing_status FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
  if (!acc || (PROVIDER_CYCLE_STATUSES as readonly string[]).includes(acc.billing_status ?? '')) return false;
  let start = acc.cycle_started_at;
  // A paid period the provider ran ends where it said; the cycles after it are calendar months.
  let end = accountCycleEnd({ cycleStartedAt: start, cycleEndsAt: acc.cycle_ends_at });
  let changed = false;
  while (end <= now) {
    start = end;
    end = cycleEnd(start);
    const plan = plans[isPlanName(acc.plan) ? acc.plan : 'free'];
    changed = (await startCycle(tx, accountId, plan.monthlyCredits, start.toISOString().slice(0, 10), start)) || changed;
  }
  // A cycle already posted (a crash between runs cannot leave this, but be sure): only move the start.
  if (!changed && start.getTime() !== acc.cycle_started_at.getTime()) await tx.account.update({ where: { id: accountId }, data: { cycleStartedAt: start, cycleEndsAt: null } });
  return changed;
}

/**
 * Starts a new cycle for every account whose cycle has ended and is not run by
 * the payment provider: the balance is set to the plan's credits (no
 * rollover) by one ledger entry named after the cycle, so a second run, or a
 * second process, changes nothing.
 * @returns the ids of the accounts reset.
 */
export async function resetDueCycles(db: PrismaClient, clock: Clock, onChanged: (accountId: string) => Promise<void>): Promise<string[]> {
  const now = clock.now();
  const candidates = await db.account.findMany({
    where: {
      cycleStartedAt: { lte: new Date(now.getTime() - 27 * 86_400_000) },
      OR: [{ billingStatus: null }, { billingStatus: { notIn: [...PROVIDER_CYCLE_STATUSES] } }],
    },
    select: { id: true },
  });
  const reset: string[] = [];
  for (const { id } of candidates) {
    if (await inTransaction(db, (tx) => resetAccountIfDue(tx, id, now))) {
      reset.push(id);
      await onChanged(id);
    }
  }
  return reset;
}
