import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { Clock } from '../clock.js';
import { DomainError, invalid } from '../errors.js';
import * as ledger from '../ledger.js';
import type { LedgerRow } from '../ledger.js';
import { type PlanName, isPlanName, plans } from '../pricing.js';
import { inTransaction } from '../transaction.js';
import type { Actor } from './actor.js';
import { accountCycleEnd, startCycle } from './billing-cycle.js';
import { LIVE_SUBSCRIPTION_STATUSES } from './billing.js';
import type { Metering } from './metering.js';

export interface UnlockView {
  transcriptId: string;
  unlockedAt: Date;
}

export interface Me {
  accountId: string;
  email: string;
  plan: PlanName;
  credits: number;
  billingManaged: boolean;
  /** A paid subscription is live (active, trialing, past due or unpaid): plan changes go through the billing portal. */
  subscribed: boolean;
  /** The payment provider's status of the subscription the account follows (active, past_due, unpaid, canceled, …); null without one. */
  billingStatus: string | null;
  unlocks: UnlockView[];
}

export interface Usage {
  plan: PlanName;
  cycleCredits: number;
  creditsRemaining: number;
  cycleStartedAt: Date;
  cycleEndsAt: Date;
  requestsToday: number;
  requestLimit: number;
  requestsRemaining: number;
  ledger: LedgerRow[];
  recentUnlocks: UnlockView[];
}

/** Ledger entries shown in `GET /usage`. Default: 50. */
export const USAGE_LEDGER_ENTRIES = 50;
/** Unlocks shown in `GET /usage`. Default: 20. */
export const USAGE_RECENT_UNLOCKS = 20;

export interface AccountServiceDeps {
  db: PrismaClient;
  bus: EventBus;
  clock: Clock;
  metering: Metering;
}

/**
 * Reading and administering accounts. `me` is served from memory when warm and
 * dropped by `account.changed` (published after every ledger or unlock change).
 */
export function createAccountService({ db, bus, clock, metering }: AccountServiceDeps) {
  const meCache = new LRUCache<string, Me>({ max: 50_000 });
  bus.subscribe((e) => {
    if (e.type === 'account.changed' || e.type === 'key.revoked') meCache.delete(e.accountId);
    else if (e.type === 'bus.reconnected') meCache.clear();
  });

  async function loadAccount(accountId: string) {
    const account = await db.account.findUnique({ where: { id: accountId } });
    if (!account) throw new DomainError('not_found', 'No such account');
    return account;
  }

  async function unlocks(accountId: string, take?: number): Promise<UnlockView[]> {
    const rows = await db.unlock.findMany({ where: { accountId }, orderBy: { createdAt: 'desc' }, take, select: { transcriptId: true, createdAt: true } });
    return rows.map((r) => ({ transcriptId: r.transcriptId, unlockedAt: r.createdAt }));
  }

  async function changed(accountId: string): Promise<void> {
    meCache.delete(accountId);
    await bus.publish({ type: 'account.changed', accountId });
  }

  return {
    async me(actor: Actor): Promise<Me> {
      const hit = meCache.get(actor.accountId);
      if (hit) return hit;
      const [account, list] = await Promise.all([loadAccount(actor.accountId), unlocks(actor.accountId)]);
      const me: Me = {
        accountId: account.id,
        email: account.email,
        plan: isPlanName(account.plan) ? account.plan : 'free',
        credits: account.credits,
        // The account subscribed through the payment provider (now or before): the billing portal opens.
        billingManaged: account.billingSubscriptionId !== null,
        subscribed: LIVE_SUBSCRIPTION_STATUSES.includes(account.billingStatus ?? ''),
        billingStatus: account.billingStatus,
        unlocks: list,
      };
      meCache.set(actor.accountId, me);
      return me;
    },

    async usage(actor: Actor): Promise<Usage> {
      const [account, entries, recent, requestsToday] = await Promise.all([
        loadAccount(actor.accountId),
        db.ledgerEntry.findMany({ where: { accountId: actor.accountId }, orderBy: { id: 'desc' }, take: USAGE_LEDGER_ENTRIES }),
        unlocks(actor.accountId, USAGE_RECENT_UNLOCKS),
        metering.usedToday(actor),
      ]);
      const plan = plans[isPlanName(account.plan) ? account.plan : 'free'];
      return {
        plan: plan.name,
        cycleCredits: plan.monthlyCredits,
        creditsRemaining: account.credits,
        cycleStartedAt: account.cycleStartedAt,
        cycleEndsAt: accountCycleEnd(account),
        requestsToday,
        requestLimit: plan.dailyRequests,
        requestsRemaining: Math.max(0, plan.dailyRequests - requestsToday),
        ledger: entries as LedgerRow[],
        recentUnlocks: recent,
      };
    },

    /** Admin: adds credits as a ledger grant. */
    async grantCredits(email: string, credits: number, reason: string): Promise<number> {
      const account = await db.account.findUnique({ where: { email: email.toLowerCase() } });
      if (!account) throw new DomainError('not_found', `No account for ${email}`);
      const { entry } = await inTransaction(db, (tx) =>
        ledger.grant(tx, account.id, credits, `admin-grant:${account.id}:${clock.now().toISOString()}`, reason),
      );
      await changed(account.id);
      return entry.balanceAfter;
    },

    /**
     * Admin: moves an account to a plan; the new cycle starts now with its
     * credits. Refused while a Stripe subscription decides the plan.
     */
    async setPlan(email: string, plan: string, billingCustomerId?: string): Promise<void> {
      if (!isPlanName(plan)) throw invalid('plan', `one of ${Object.keys(plans).join(', ')}`);
      const account = await db.account.findUnique({ where: { email: email.toLowerCase() } });
      if (!account) throw new DomainError('not_found', `No account for ${email}`);
      // Stripe would go on charging for the plan, and its next event would put it back.
      if (account.billingSubscriptionId && LIVE_SUBSCRIPTION_STATUSES.includes(account.billingStatus ?? '')) {
        throw new DomainError(
          'already_subscribed',
          `${email} pays for ${account.plan} through Stripe (subscription ${account.billingSubscriptionId}, ${account.billingStatus}): change or cancel it in Stripe or the billing portal; the plan follows.`,
        );
      }
      const now = clock.now();
      await inTransaction(db, async (tx) => {
        await tx.account.update({
          where: { id: account.id },
          data: { plan, cycleStartedAt: now, billingCustomerId: billingCustomerId ?? account.billingCustomerId },
        });
        await startCycle(tx, account.id, plans[plan].monthlyCredits, `${plan}:${now.toISOString()}`, now);
      });
      await changed(account.id);
    },

    /** Admin: everything about one account. */
    async show(email: string) {
      const account = await db.account.findUnique({ where: { email: email.toLowerCase() } });
      if (!account) throw new DomainError('not_found', `No account for ${email}`);
      const actor: Actor = { accountId: account.id, keyId: '', plan: isPlanName(account.plan) ? account.plan : 'free' };
      return { account, usage: await this.usage(actor) };
    },

    changed,
  };
}

export type AccountService = ReturnType<typeof createAccountService>;
