import Stripe from 'stripe';
import type { StripeConfig } from '../../config.js';
import type { BillingEvent, BillingProvider, CheckoutState, InvoiceState, PaidPlanName, SubscriptionState } from '../../core/accounts/billing.js';
import { paidPlanNames } from '../../core/accounts/billing.js';
import { DomainError } from '../../core/errors.js';

/** Milliseconds one Stripe request may take. Default: 20 s. */
const REQUEST_TIMEOUT_MS = 20_000;

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (!value) return null;
  return typeof value === 'string' ? value : value.id;
}

function seconds(value: unknown): Date | null {
  return typeof value === 'number' ? new Date(value * 1000) : null;
}

/** Stripe's answer as an error Podtext reports: a bad signature is the sender's fault, anything else is transient. */
function translate(err: unknown): never {
  if (err instanceof DomainError) throw err;
  if (err instanceof Stripe.errors.StripeSignatureVerificationError) {
    throw new DomainError('invalid_signature', 'Stripe-Signature: does not match this body and the webhook secret.');
  }
  const e = err as { type?: string; statusCode?: number; message?: string };
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
    maxNetworkRetries: 2,
    timeout: REQUEST_TIMEOUT_MS,
    telemetry: false,
  });
  const planByPrice = new Map<string, PaidPlanName>(paidPlanNames.map((p) => [config.prices[p], p]));

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
    return {
      id: inv.id!,
      customerId: idOf(inv.customer as string | { id: string } | null),
      status: inv.status ?? null,
      billingReason: inv.billing_reason ?? null,
      subscriptionId: idOf(inv.parent?.subscription_details?.subscription as string | { id: string } | undefined) ?? idOf(legacy),
    };
  }

  return {
    enabled: true,

    createCustomer: (accountId, email) =>
      call(async () => (await stripe.customers.create({ email, metadata: { account_id: accountId } }, { idempotencyKey: `podtext-customer-${accountId}` })).id),

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
      try {
        const event = await stripe.webhooks.constructEventAsync(rawBody, signature, config.webhookSecret);
        const object = (event.data?.object ?? {}) as { id?: unknown };
        return { id: event.id, type: event.type, objectId: typeof object.id === 'string' ? object.id : null };
      } catch (err) {
        translate(err);
      }
    },
  };
}
