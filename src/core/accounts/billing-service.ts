import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Logger } from '../../infra/logger.js';
import type { Clock } from '../clock.js';
import { rateBucket } from '../rate-bucket.js';
import { DomainError, invalid } from '../errors.js';
import * as ledger from '../ledger.js';
import { type PlanName, isPlanName, plans } from '../pricing.js';
import { inTransaction, type Tx } from '../transaction.js';
import type { Actor } from './actor.js';
import type { BillingProvider, InvoiceState, SubscriptionState } from './billing.js';
import { LIVE_SUBSCRIPTION_STATUSES, isPaidPlanName, paidPlanNames } from './billing.js';
import { PROVIDER_CYCLE_STATUSES, resetAccountIfDue, startCycle } from './billing-cycle.js';

/** Statuses under which the subscription's plan applies. `unpaid` does not: see the README. */
const PLAN_STATUSES: readonly string[] = PROVIDER_CYCLE_STATUSES;
/** Statuses a subscription never leaves. */
const TERMINAL_STATUSES: readonly string[] = ['canceled', 'incomplete_expired'];
/** Statuses that still bind the customer (Checkout would make a second subscription). */
const OPEN_STATUSES = LIVE_SUBSCRIPTION_STATUSES;
/** Invoices that start a cycle: the first one and each renewal. Proration invoices do not. */
const CYCLE_REASONS: readonly string[] = ['subscription_create', 'subscription_cycle'];

export interface BillingServiceDeps {
  db: PrismaClient;
  clock: Clock;
  provider: BillingProvider;
  siteUrl: string;
  log: Logger;
  /** Drops cached actors and accounts everywhere (published on the event bus). */
  onAccountChanged(accountId: string): Promise<void>;
}

/** What the webhook receiver did with one event. */
export interface WebhookOutcome {
  eventId: string;
  type: string;
  /** `applied`: state synced from the provider; `duplicate`: seen before; `ignored`: a type Podtext does not use. */
  outcome: 'applied' | 'duplicate' | 'ignored';
}

/** What the checkout success page shows. */
export interface CheckoutOutcome {
  /**
   * `complete`: the plan is on the account; `pending`: the provider has not
   * finished the checkout; `ended`: it was paid, but its subscription gives the
   * account no plan any more (cancelled since, or unpaid).
   */
  status: 'complete' | 'pending' | 'ended';
  plan: PlanName;
  credits: number;
  /** The account the checkout paid for; null while pending. */
  accountId: string | null;
}

/** What one event or checkout is about. */
interface Subject {
  subscriptionId: string;
  /** The invoice the event named; `latest` for a checkout (the invoice that started its period). */
  invoice: InvoiceState | 'latest' | null;
  /** Account named by a checkout's client reference, for a customer not yet linked. */
  referencedAccountId?: string | null;
}

/** What the provider says now. */
interface Fetched {
  subscription: SubscriptionState;
  invoice: InvoiceState | null;
  referencedAccountId?: string | null;
}

/** The share of the subscription's current period still to run at `now`, 0–1. */
function periodLeft(sub: SubscriptionState, now: Date): number {
  const length = sub.periodEnd.getTime() - sub.periodStart.getTime();
  if (length <= 0) return 1;
  return Math.min(1, Math.max(0, (sub.periodEnd.getTime() - now.getTime()) / length));
}

function effectivePlan(sub: SubscriptionState): PlanName {
  return PLAN_STATUSES.includes(sub.status) && sub.plan ? sub.plan : 'free';
}

/**
 * Paid plans through the payment provider: checkout, the billing portal, and
 * the webhook receiver that keeps each account's plan and credit cycle in
 * step with its subscription. Every event is a cue only: the subscription
 * (and invoice) are read back from the provider and applied as they are now,
 * so duplicate, late and out-of-order events are harmless.
 */
/** Stripe lookups the keyless checkout success page may cause, per second on average. Default: 10. */
const CHECKOUT_LOOKUPS_PER_SECOND = 10;
/** Lookups at once before the average applies. Default: 20. */
const CHECKOUT_LOOKUP_BURST = 20;

export function createBillingService({ db, clock, provider, siteUrl, log, onAccountChanged }: BillingServiceDeps) {
  const returnUrl = `${siteUrl}/account`;
  // The success page needs no key, and each visit asks Stripe: a flood of them must not spend
  // Stripe's rate limit (100 reads a second), which checkouts and webhooks need too.
  const checkoutLookups = rateBucket(CHECKOUT_LOOKUPS_PER_SECOND, CHECKOUT_LOOKUP_BURST);
  /** One sync per customer at a time in this process, so a slow read never overwrites a newer one. */
  const queues = new Map<string, Promise<unknown>>();

  function serial<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const run = (queues.get(key) ?? Promise.resolve()).then(fn);
    // The queue's link never rejects: the caller gets `run`'s failure, and nothing is left unhandled.
    const tail: Promise<void> = run.then(
      () => undefined,
      () => undefined,
    ).finally(() => {
      if (queues.get(key) === tail) queues.delete(key);
    });
    queues.set(key, tail);
    return run;
  }

  async function loadAccount(accountId: string) {
    const account = await db.account.findUnique({ where: { id: accountId } });
    if (!account) throw new DomainError('not_found', 'No such account');
    return account;
  }

  /** Follows `sub` on the account: plan, status, an upgrade's top-up, and the Free cycle once it lapses. */
  async function applySubscription(tx: Tx, accountId: string, sub: SubscriptionState): Promise<boolean> {
    const [acc] = await tx.$queryRaw<{ plan: string; billing_subscription_id: string | null; billing_status: string | null; cycle_allowance: number; cycle_started_at: Date }[]>`
      SELECT plan, billing_subscription_id, billing_status, cycle_allowance, cycle_started_at FROM accounts WHERE id = ${accountId}::uuid FOR UPDATE`;
    if (!acc) return false;
    const same = acc.billing_subscription_id === sub.id;
    // An ended subscription of the past does not displace the one followed now.
    if (acc.billing_subscription_id && !same && TERMINAL_STATUSES.includes(sub.status)) return false;
    // A subscription never comes back from canceled: a stale read must not revive it.
    if (same && TERMINAL_STATUSES.includes(acc.billing_status ?? '') && !TERMINAL_STATUSES.includes(sub.status)) return false;
    if (!sub.plan && PLAN_STATUSES.includes(sub.status)) {
      log.error({ account: accountId, subscription: sub.id }, "billing: a live subscription's price is in none of STRIPE_PRICE_*; the account is treated as Free until its plan's list names that price");
    }
    const plan = effectivePlan(sub);
    await tx.account.update({ where: { id: accountId }, data: { plan, billingSubscriptionId: sub.id, billingStatus: sub.status } });
    // An upgrade applies now: the balance gets the allowance's difference for the part of the
    // period left (what Stripe charges for the switch), once per plan and cycle. Only within a
    // cycle this subscription's paid invoice started: before it (a first purchase whose invoice
    // has not arrived, a renewal not yet paid) the allowance is another cycle's, and the
    // invoice about to arrive sets the balance to the new plan's credits anyway.
    const allowance = plans[plan].monthlyCredits;
    const ownCycle = acc.cycle_started_at.getTime() === sub.periodStart.getTime();
    if (same && ownCycle && plan !== 'free' && isPaidPlanName(acc.plan) && acc.cycle_allowance > 0 && allowance > acc.cycle_allowance) {
      const cycleKey = acc.cycle_started_at.toISOString();
      const left = periodLeft(sub, clock.now());
      const topUp = Math.round((allowance - acc.cycle_allowance) * left);
      const memo = `Upgrade to ${plans[plan].title}: allowance ${acc.cycle_allowance} → ${allowance}, for the ${Math.round(left * 100)}% of the period left`;
      if (topUp > 0) await ledger.grant(tx, accountId, topUp, `upgrade:${accountId}:${cycleKey}:${plan}`, memo);
      await tx.account.update({ where: { id: accountId }, data: { cycleAllowance: allowance } });
    }
    // Lapsed to Free: Free's monthly cycle takes over from the last paid cycle's end.
    if (plan === 'free') await resetAccountIfDue(tx, accountId, clock.now());
    return acc.plan !== plan || acc.billing_status !== sub.status || !same;
  }

  /**
   * A paid first or renewal invoice of the followed subscription starts a
   * cycle, keyed by the invoice id; only one for the period running now, so an
   * older invoice paid late (or delivered late) does not reset a newer cycle.
   */
  async function applyInvoice(tx: Tx, accountId: string, sub: SubscriptionState, invoice: InvoiceState): Promise<boolean> {
    if (invoice.status !== 'paid' || !CYCLE_REASONS.includes(invoice.billingReason ?? '') || invoice.subscriptionId !== sub.id) return false;
    if (invoice.periodStart && invoice.periodStart.getTime() !== sub.periodStart.getTime()) {
      log.info({ invoice: invoice.id, subscription: sub.id }, 'billing: a paid invoice for a past period starts no cycle');
      return false;
    }
    const plan = effectivePlan(sub);
    if (plan === 'free') return false;
    const acc = await tx.account.findUnique({ where: { id: accountId }, select: { billingSubscriptionId: true } });
    if (acc?.billingSubscriptionId !== sub.id) return false;
    return startCycle(tx, accountId, plans[plan].monthlyCredits, invoice.id, sub.periodStart, sub.periodEnd > sub.periodStart ? sub.periodEnd : null);
  }

  /**
   * Makes the provider's customer for an account that has none (`replacing`
   * null) or whose customer the provider no longer has, and links it unless
   * another checkout linked one first; the linked one is returned.
   */
  async function linkCustomer(accountId: string, email: string, replacing: string | null): Promise<string> {
    const created = await provider.createCustomer(accountId, email, replacing ?? undefined);
    const linked = await db.account.updateMany({ where: { id: accountId, billingCustomerId: replacing }, data: { billingCustomerId: created } });
    return linked.count === 1 ? created : (await loadAccount(accountId)).billingCustomerId!;
  }

  /** The account a subscription belongs to: by its customer, or (first checkout) by the checkout's reference. */
  async function accountFor(tx: Tx, customerId: string, referencedAccountId?: string | null): Promise<string | null> {
    const owner = await tx.account.findFirst({ where: { billingCustomerId: customerId }, select: { id: true } });
    if (owner) return owner.id;
    if (!referencedAccountId) return null;
    const linked = await tx.account.updateMany({ where: { id: referencedAccountId, billingCustomerId: null }, data: { billingCustomerId: customerId } });
    return linked.count === 1 ? referencedAccountId : null;
  }

  /** Applies what the provider says, optionally recording `eventId` in the same transaction. */
  async function apply(fetched: Fetched, event?: { id: string; type: string }): Promise<{ accountId: string | null; duplicate: boolean }> {
    const { subscription: sub, invoice } = fetched;
    const result = await inTransaction(db, async (tx) => {
        const accountId = await accountFor(tx, sub.customerId, fetched.referencedAccountId);
        if (event) {
          const inserted = await tx.$queryRaw<{ id: string }[]>`
            INSERT INTO billing_events (id, type, account_id) VALUES (${event.id}, ${event.type}, ${accountId}::uuid)
            ON CONFLICT (id) DO NOTHING RETURNING id`;
          if (inserted.length === 0) return { accountId, duplicate: true };
        }
        if (!accountId) return { accountId, duplicate: false };
        await applySubscription(tx, accountId, sub);
        if (invoice) await applyInvoice(tx, accountId, sub, invoice);
        return { accountId, duplicate: false };
    });
    if (result.accountId && !result.duplicate) await onAccountChanged(result.accountId);
    else if (!result.accountId) log.warn({ customer: sub.customerId, event: event?.id }, 'billing: no account for this customer; nothing changed');
    return result;
  }

  /**
   * Reads the subscription now and applies it. One subject at a time per
   * subscription in this process, so a slow read never lands after a newer one;
   * across processes a canceled subscription still never comes back.
   */
  function sync(subject: Subject, event?: { id: string; type: string }) {
    return serial(subject.subscriptionId, async () => {
      const read = await provider.subscription(subject.subscriptionId);
      let invoice = subject.invoice === 'latest' ? null : subject.invoice;
      if (subject.invoice === 'latest' && read.latestInvoiceId) invoice = await provider.invoice(read.latestInvoiceId);
      const subscription = await subscriptionToFollow(read);
      if (subscription.id !== read.id) invoice = null;
      return apply({ subscription, invoice, referencedAccountId: subject.referencedAccountId }, event);
    });
  }

  /**
   * One live subscription per account. A second one (two checkouts paid at
   * once) never displaces the live one the account follows; it is reported
   * for the operator to refund. When the followed one ends while another is
   * live, the account follows that one instead of falling to Free.
   */
  async function subscriptionToFollow(sub: SubscriptionState): Promise<SubscriptionState> {
    const owner = await db.account.findFirst({ where: { billingCustomerId: sub.customerId }, select: { id: true, billingSubscriptionId: true, billingStatus: true } });
    const followed = owner?.billingSubscriptionId;
    if (!owner || !followed) return sub;
    if (followed !== sub.id && OPEN_STATUSES.includes(sub.status) && OPEN_STATUSES.includes(owner.billingStatus ?? '')) {
      const current = await provider.subscription(followed);
      if (!OPEN_STATUSES.includes(current.status)) return sub;
      log.error({ account: owner.id, customer: sub.customerId, followed, duplicate: sub.id }, 'billing: a second live subscription for one account; it is not followed: cancel and refund it in Stripe');
      return current;
    }
    if (followed === sub.id && TERMINAL_STATUSES.includes(sub.status)) {
      const live = (await provider.liveSubscriptions(sub.customerId)).find((s) => s.id !== sub.id && OPEN_STATUSES.includes(s.status));
      if (live) return live;
    }
    return sub;
  }

  /** The subscription behind a checkout, or null while it is unfinished. */
  async function checkoutSubject(sessionId: string): Promise<Subject | null> {
    const session = await provider.checkout(sessionId);
    if (session.status !== 'complete' || !session.subscriptionId) return null;
    return { subscriptionId: session.subscriptionId, invoice: 'latest', referencedAccountId: session.clientReferenceId };
  }

  /** What an event is about, read back from the provider; 'ignored' for types Podtext does not use, null for none. */
  async function eventSubject(type: string, objectId: string | null): Promise<Subject | 'ignored' | null> {
    if (!objectId) return 'ignored';
    if (type === 'checkout.session.completed' || type === 'checkout.session.async_payment_succeeded') return checkoutSubject(objectId);
    if (type.startsWith('customer.subscription.')) return { subscriptionId: objectId, invoice: null };
    if (type === 'invoice.paid' || type === 'invoice.payment_succeeded' || type === 'invoice.payment_failed') {
      const invoice = await provider.invoice(objectId);
      return invoice.subscriptionId ? { subscriptionId: invoice.subscriptionId, invoice } : null;
    }
    return 'ignored';
  }

  return {
    /** True when a payment provider is configured. */
    get enabled(): boolean {
      return provider.enabled;
    },

    /**
     * A hosted checkout page subscribing the caller's account to `plan`. The
     * provider's customer is made first (once per account), so every later
     * event finds the account by it.
     */
    async checkout(actor: Actor, plan: string): Promise<{ url: string }> {
      if (!isPaidPlanName(plan)) throw invalid('plan', `one of ${paidPlanNames.join(', ')}`);
      if (!provider.enabled) throw new DomainError('billing_not_configured', 'Billing is not configured on this Podtext server: paid plans cannot be bought here.');
      // One checkout at a time per account in this process: each one closes the ones before it.
      return serial(`checkout:${actor.accountId}`, async () => {
        const account = await loadAccount(actor.accountId);
        const subscribed = (status: string) =>
          new DomainError('already_subscribed', `This account already has a subscription (${status}); change or cancel it in the billing portal (Manage billing on the website's account page, or POST /billing/portal).`);
        if (OPEN_STATUSES.includes(account.billingStatus ?? '')) throw subscribed(account.billingStatus!);
        const open = async (customerId: string) => {
          // A subscription paid moments ago, whose events have not arrived yet, counts too.
          const live = (await provider.liveSubscriptions(customerId)).find((s) => OPEN_STATUSES.includes(s.status));
          if (live) {
            await sync({ subscriptionId: live.id, invoice: 'latest' });
            throw subscribed(live.status);
          }
          // A checkout page left open in another tab could otherwise be paid too: a second subscription.
          await provider.expireOpenCheckouts(customerId);
          return provider.checkoutUrl({
            customerId,
            accountId: account.id,
            plan,
            successUrl: `${siteUrl}/billing/success?session_id={CHECKOUT_SESSION_ID}`,
            cancelUrl: returnUrl,
          });
        };
        const customerId = account.billingCustomerId ?? (await linkCustomer(account.id, account.email, null));
        try {
          return { url: await open(customerId) };
        } catch (err) {
          if (err instanceof DomainError && err.code === 'billing_not_configured') log.error({ account: account.id, plan, err: err.message }, 'billing: Stripe refused the checkout');
          if (!(err instanceof DomainError && err.code === 'not_found' && err.details?.object === 'customer')) throw err;
          // The customer was deleted in Stripe (a dashboard clean-up, an erasure request): buying again makes a new one.
          log.warn({ account: account.id, customer: customerId }, 'billing: Stripe no longer has this customer; checkout makes a new one');
          return { url: await open(await linkCustomer(account.id, account.email, customerId)) };
        }
      });
    },

    /** The provider's billing portal; `not_subscribed` unless the account has (or had) a subscription. */
    async portal(actor: Actor): Promise<{ url: string }> {
      const account = await loadAccount(actor.accountId);
      const never = new DomainError('not_subscribed', 'This key has never subscribed to a paid plan, so there is no billing portal to open.');
      if (!account.billingCustomerId) throw never;
      if (!account.billingSubscriptionId) {
        // A customer attached by an operator: ask the provider whether it ever subscribed.
        if (!provider.enabled) throw never;
        const latest = await provider.latestSubscription(account.billingCustomerId);
        if (!latest) throw never;
        await apply({ subscription: latest, invoice: null });
      }
      try {
        return { url: await provider.portalUrl(account.billingCustomerId, returnUrl) };
      } catch (err) {
        // The customer was deleted in Stripe's dashboard: nothing is billed any more.
        if (err instanceof DomainError && err.code === 'not_found' && err.details?.object === 'customer') {
          throw new DomainError('not_subscribed', 'Stripe no longer has this account as a customer, so there is no billing portal to open.');
        }
        throw err;
      }
    },

    /**
     * The webhook receiver: verifies the signature over the raw body, reads the
     * subject back from the provider, and applies it with the event id in one
     * transaction. Provider failures throw `upstream_failed` (5xx: the provider retries).
     */
    async receiveWebhook(rawBody: string, signature: string | undefined): Promise<WebhookOutcome> {
      const event = await provider.verifyEvent(rawBody, signature).catch((err: unknown) => {
        // Every event refused as old means this server's clock is off: the operator must hear of it.
        if (err instanceof DomainError && err.details?.stale) log.warn('billing: a Stripe event signed more than 5 minutes ago was refused; if every event is, check this server\'s clock');
        throw err;
      });
      const seen = await db.billingEvent.findUnique({ where: { id: event.id }, select: { id: true } });
      if (seen) return { eventId: event.id, type: event.type, outcome: 'duplicate' };
      const remember = async (): Promise<WebhookOutcome> => {
        await db.billingEvent.createMany({ data: [{ id: event.id, type: event.type }], skipDuplicates: true });
        return { eventId: event.id, type: event.type, outcome: 'ignored' };
      };
      try {
        const subject = await eventSubject(event.type, event.objectId);
        if (subject === 'ignored') return { eventId: event.id, type: event.type, outcome: 'ignored' };
        // About something without a subscription (an unfinished checkout, a one-off invoice): remember it only.
        if (!subject) return await remember();
        const { duplicate } = await sync(subject, event);
        return { eventId: event.id, type: event.type, outcome: duplicate ? 'duplicate' : 'applied' };
      } catch (err) {
        // Stripe says the object does not exist (another account's or mode's event): a retry cannot change that.
        if (!(err instanceof DomainError && err.code === 'not_found')) throw err;
        log.warn({ event: event.id, type: event.type, object: event.objectId }, 'billing: the event names an object Stripe does not have; ignored');
        return remember();
      }
    },

    /**
     * The checkout success page: syncs the account from the provider once,
     * so a buyer who returns before the webhook sees the plan. Idempotent with
     * the webhook (the cycle is keyed by the invoice id).
     */
    async completeCheckout(sessionId: string): Promise<CheckoutOutcome> {
      if (!/^cs_[A-Za-z0-9_]{1,200}$/.test(sessionId)) throw invalid('session_id', 'not a checkout session id');
      if (!provider.enabled) throw new DomainError('billing_not_configured', 'Billing is not configured on this Podtext server.');
      if (!checkoutLookups.take()) {
        throw new DomainError('too_many_attempts', 'Many checkouts are being confirmed at once; reload this page in a few seconds. Your plan is applied either way once Stripe confirms the payment.', { retryAfter: 2 });
      }
      const subject = await checkoutSubject(sessionId);
      if (!subject) return { status: 'pending', plan: 'free', credits: 0, accountId: null };
      const { accountId } = await sync(subject);
      if (!accountId) throw new DomainError('not_found', 'No Podtext account for this checkout.');
      const account = await loadAccount(accountId);
      const plan = isPlanName(account.plan) ? account.plan : 'free';
      // A page revisited (history, a bookmark) after the subscription lapsed must not thank the buyer for Free;
      // one whose first payment is still processing (incomplete) is not done yet.
      if (plan === 'free') {
        const lapsed = [...TERMINAL_STATUSES, 'unpaid'].includes(account.billingStatus ?? '');
        return { status: lapsed ? 'ended' : 'pending', plan, credits: account.credits, accountId: lapsed ? account.id : null };
      }
      return { status: 'complete', plan, credits: account.credits, accountId: account.id };
    },
  };
}

export type BillingService = ReturnType<typeof createBillingService>;
