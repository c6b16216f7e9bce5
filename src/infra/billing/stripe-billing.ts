import Stripe from 'stripe';
import type { StripeConfig } from '../../config.js';
import type { BillingEvent, BillingProvider, CheckoutState, InvoiceState, PaidPlanName, SubscriptionState } from '../../core/accounts/billing.js';
import { paidPlanNames } from '../../core/accounts/billing.js';
import { DomainError, invalid } from '../../core/errors.js';

/**
 * Milliseconds one Stripe request may take. Default: 10 s (Stripe answers in
 * well under a second). With one retry, a Stripe that does not answer costs a
 * buyer about 20 s before 502, inside SHUTDOWN_GRACE_SECONDS' default 25 s.
 */
const REQUEST_TIMEOUT_MS = 10_000;
/** Attempts after the first for a request that failed in transit or with 5xx/429 (POSTs keep one idempotency key). Default: 1. */
const NETWORK_RETRIES = 1;

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

/** A line's price id in either API shape (`price`, or `pricing.price_details.price`). */
function priceOf(line: Stripe.InvoiceLineItem): string | null {
  const raw = line as unknown as { price?: string | { id: string } | null; pricing?: { price_details?: { price?: string | { id: string } } } | null };
  return idOf(raw.price ?? null) ?? idOf(raw.pricing?.price_details?.price ?? null);
}

/**
 * A proration line (time left on a plan switched from or to), in either API
 * shape (`proration`, or on the line's `parent`). A switch made with
 * `create_prorations` puts these on the next renewal invoice, ahead of the
 * new period's line and with the same prices, so they say nothing of the period paid for.
 */
function isProration(line: Stripe.InvoiceLineItem): boolean {
  const raw = line as unknown as { proration?: boolean; parent?: { invoice_item_details?: { proration?: boolean } | null; subscription_item_details?: { proration?: boolean } | null } | null };
  return Boolean(raw.proration || raw.parent?.invoice_item_details?.proration || raw.parent?.subscription_item_details?.proration);
}

function seconds(value: unknown): Date | null {
  return typeof value === 'number' ? new Date(value * 1000) : null;
}

/** Stripe saying the customer named does not exist (deleted in its dashboard), as opposed to another object. */
function isMissingCustomer(e: { param?: string; message?: string }): boolean {
  return e.param === 'customer' || /^No such customer\b/.test(e.message ?? '');
}

/** Stripe's answer as an error Podtext reports: a bad signature is the sender's fault, anything else is transient. */
function translate(err: unknown): never {
  if (err instanceof DomainError) throw err;
  if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
    // The signature matched but is old: a replay, or this server's clock is off. A wrong secret is another matter.
    if (/tolerance/i.test(err.message)) {
      throw new DomainError('invalid_signature', 'Stripe-Signature: signed more than 5 minutes ago by this server\'s clock: a replay, or the clock is off (check its time sync).', { stale: true });
    }
    throw new DomainError('invalid_signature', 'Stripe-Signature: does not match this body and the webhook secret.');
  }
  const e = err as { type?: string; statusCode?: number; code?: string; message?: string; param?: string };
  // Retrying cannot help when Stripe says the object does not exist (404, or 400 for a parameter naming it).
  // `object` says which: a missing customer (deleted in Stripe) is not a missing price (a configuration error).
  if (e.type === 'StripeInvalidRequestError' && (e.statusCode === 404 || e.code === 'resource_missing')) {
    const object = isMissingCustomer(e) ? 'customer' : (e.param ?? null);
    throw new DomainError('not_found', `Stripe has no such object: ${e.message ?? 'not found'}`, { object });
  }
  throw new DomainError('upstream_failed', `Stripe did not answer as expected (${e.type ?? 'error'}${e.statusCode ? ` ${e.statusCode}` : ''}); try again.`);
}

async function call<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    translate(err);
  }
}

/**
 * The billing port over the official Stripe SDK. `apiUrl` moves the SDK to
 * another host (a local stand-in in tests). Subscriptions and invoices are
 * read in both of Stripe's API shapes: `invoice.subscription` or
 * `invoice.parent.subscription_details.subscription`, and a period on the
 * subscription or on its items.
 */
export function createStripeBilling(config: StripeConfig): BillingProvider {
  const url = config.apiUrl ? new URL(config.apiUrl) : null;
  const stripe = new Stripe(config.secretKey, {
    ...(url ? { host: url.hostname, port: url.port || (url.protocol === 'http:' ? 80 : 443), protocol: url.protocol === 'http:' ? 'http' : 'https' } : {}),
    maxNetworkRetries: NETWORK_RETRIES,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
  });
  // Subscriptions on a plan's earlier prices (a price change leaves them there) keep the plan.
  const planByPrice = new Map<string, PaidPlanName>(paidPlanNames.flatMap((p) => [config.prices[p], ...config.earlierPrices[p]].map((price) => [price, p] as const)));

  function subscriptionState(sub: Stripe.Subscription): SubscriptionState {
    const raw = sub as unknown as Record<string, unknown>;
    const items = sub.items?.data ?? [];
    const item = items.find((i) => planByPrice.has(i.price?.id)) ?? items[0];
    const itemRaw = (item ?? {}) as unknown as Record<string, unknown>;
    const start = seconds(raw.current_period_start) ?? seconds(itemRaw.current_period_start) ?? seconds(sub.start_date) ?? new Date();
    const end = seconds(raw.current_period_end) ?? seconds(itemRaw.current_period_end) ?? start;
    return {
      id: sub.id,
      customerId: idOf(sub.customer as string | { id: string })!,
      status: sub.status,
      plan: (item && planByPrice.get(item.price?.id)) ?? null,
      periodStart: start,
      periodEnd: end,
      cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end),
      latestInvoiceId: idOf(sub.latest_invoice as string | { id: string } | null),
    };
  }

  function invoiceState(inv: Stripe.Invoice): InvoiceState {
    const legacy = (inv as unknown as { subscription?: string | { id: string } | null }).subscription;
    const periodLines = (inv.lines?.data ?? []).filter((l) => l.period && !isProration(l));
    const subscriptionLine = periodLines.find((l) => planByPrice.has(priceOf(l) ?? '')) ?? periodLines[0];
    return {
      periodStart: seconds(subscriptionLine?.period?.start),
      id: inv.id!,
      customerId: idOf(inv.customer as string | { id: string } | null),
      status: inv.status ?? null,
      billingReason: inv.billing_reason ?? null,
      subscriptionId: idOf(inv.parent?.subscription_details?.subscription as string | { id: string } | undefined) ?? idOf(legacy),
    };
  }

  return {
    enabled: true,

    // A replacement needs a key of its own: within the key's 24 hours Stripe would answer the deleted customer again.
    createCustomer: (accountId, email, replacing) =>
      call(async () => (await stripe.customers.create({ email, metadata: { account_id: accountId } }, { idempotencyKey: `podtext-customer-${accountId}${replacing ? `-after-${replacing}` : ''}` })).id),

    checkoutUrl: ({ customerId, accountId, plan, successUrl, cancelUrl }) =>
      call(async () => {
        const session = await stripe.checkout.sessions.create({
          mode: 'subscription',
          customer: customerId,
          client_reference_id: accountId,
          line_items: [{ price: config.prices[plan], quantity: 1 }],
          subscription_data: { metadata: { account_id: accountId } },
          success_url: successUrl,
          cancel_url: cancelUrl,
        }).catch((err: unknown) => {
          // A price Stripe does not have (a typo, a test-mode price with a live key) is the operator's to fix; buying again cannot help.
          const e = err as { code?: string; param?: string; message?: string };
          if (e.code !== 'resource_missing' || isMissingCustomer(e)) throw err;
          throw new DomainError('billing_not_configured', `Stripe has no price ${config.prices[plan]} for ${plan} (STRIPE_PRICE_${plan.toUpperCase()}): this plan cannot be bought here until the operator fixes it.`);
        });
        if (!session.url) throw new DomainError('upstream_failed', 'Stripe made a checkout session without a URL.');
        return session.url;
      }),

    portalUrl: (customerId, returnUrl) => call(async () => (await stripe.billingPortal.sessions.create({ customer: customerId, return_url: returnUrl })).url),

    subscription: (id) => call(async () => subscriptionState(await stripe.subscriptions.retrieve(id))),

    latestSubscription: (customerId) =>
      call(async () => {
        const list = await stripe.subscriptions.list({ customer: customerId, status: 'all', limit: 1 });
        return list.data[0] ? subscriptionState(list.data[0]) : null;
      }),

    liveSubscriptions: (customerId) =>
      call(async () => {
        // Without a status, Stripe lists every subscription that has not been canceled.
        const list = await stripe.subscriptions.list({ customer: customerId, limit: 10 });
        return list.data.map(subscriptionState);
      }),

    expireOpenCheckouts: (customerId) =>
      call(async () => {
        const open = await stripe.checkout.sessions.list({ customer: customerId, status: 'open', limit: 20 });
        for (const s of open.data) await stripe.checkout.sessions.expire(s.id);
      }),

    invoice: (id) => call(async () => invoiceState(await stripe.invoices.retrieve(id))),

    checkout: (id) =>
      call(async (): Promise<CheckoutState> => {
        const s = await stripe.checkout.sessions.retrieve(id);
        return {
          id: s.id,
          status: s.status ?? null,
          customerId: idOf(s.customer as string | { id: string } | null),
          subscriptionId: idOf(s.subscription as string | { id: string } | null),
          clientReferenceId: s.client_reference_id ?? null,
        };
      }),

    async verifyEvent(rawBody, signature): Promise<BillingEvent> {
      if (!signature) throw new DomainError('invalid_signature', 'Stripe-Signature: missing.');
      let event: unknown;
      try {
        event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret);
      } catch (err) {
        // Signed, but not JSON: the sender's fault, and a retry would bring the same body.
        if (err instanceof SyntaxError) throw invalid('body', 'not a Stripe event (malformed JSON)');
        translate(err);
      }
      const e = (event ?? {}) as { id?: unknown; type?: unknown; data?: { object?: { id?: unknown } } };
      if (typeof e.id !== 'string' || !e.id || typeof e.type !== 'string') throw invalid('body', 'not a Stripe event (it needs an id and a type)');
      const objectId = e.data?.object?.id;
      return { id: e.id, type: e.type, objectId: typeof objectId === 'string' ? objectId : null };
    },
  };
}
