import { DomainError } from '../errors.js';
import type { PlanName } from '../pricing.js';

/** The paid plans: the ones bought through the payment provider. */
export type PaidPlanName = Exclude<PlanName, 'free'>;

export const paidPlanNames: PaidPlanName[] = ['plus', 'pro', 'business'];

export function isPaidPlanName(value: string): value is PaidPlanName {
  return (paidPlanNames as string[]).includes(value);
}

/** Provider statuses of a subscription that still binds the customer: a checkout would make a second one. */
export const LIVE_SUBSCRIPTION_STATUSES: readonly string[] = ['active', 'trialing', 'past_due', 'unpaid'];

/** A subscription as the provider reports it now. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  /** The provider's status: active, trialing, past_due, unpaid, canceled, incomplete, incomplete_expired, paused. */
  status: string;
  /** The plan its price stands for; null for a price Podtext does not sell. */
  plan: PaidPlanName | null;
  periodStart: Date;
  periodEnd: Date;
  cancelAtPeriodEnd: boolean;
  /** Id of the newest invoice, if any. */
  latestInvoiceId: string | null;
}

/** An invoice as the provider reports it now. */
export interface InvoiceState {
  id: string;
  customerId: string | null;
  /** draft, open, paid, uncollectible, void. */
  status: string | null;
  /** Why it was made: subscription_create, subscription_cycle, subscription_update, manual, … */
  billingReason: string | null;
  subscriptionId: string | null;
  /** Start of the subscription period the invoice pays for; null when it does not say. */
  periodStart: Date | null;
}

/** A finished or unfinished checkout, as the provider reports it now. */
export interface CheckoutState {
  id: string;
  /** open, complete or expired. */
  status: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  /** The account id given when the checkout was made. */
  clientReferenceId: string | null;
}

/** A webhook event whose signature checked out: only its id, type and object id are used. */
export interface BillingEvent {
  id: string;
  type: string;
  /** Id of the object the event is about (`data.object.id`). */
  objectId: string | null;
}

/**
 * The payment provider, behind a port. Every read goes to the provider, so
 * the core applies what the provider says now, never what an event carried.
 * Failures to reach it throw `upstream_failed` (502: the caller may retry).
 */
export interface BillingProvider {
  /** False until an operator configures a provider. */
  readonly enabled: boolean;
  /**
   * Creates the provider's customer for an account (the account id goes in its
   * metadata); `replacing` names a customer the provider no longer has.
   */
  createCustomer(accountId: string, email: string, replacing?: string): Promise<string>;
  /** A hosted checkout page that subscribes `customerId` to `plan`. */
  checkoutUrl(input: { customerId: string; accountId: string; plan: PaidPlanName; successUrl: string; cancelUrl: string }): Promise<string>;
  /** A short-lived portal URL for the provider's customer: switch plan, cancel, update card. */
  portalUrl(customerId: string, returnUrl: string): Promise<string>;
  subscription(id: string): Promise<SubscriptionState>;
  /** The customer's newest subscription in any status, or null when it never had one. */
  latestSubscription(customerId: string): Promise<SubscriptionState | null>;
  /** The customer's subscriptions that have not ended (any status but canceled). */
  liveSubscriptions(customerId: string): Promise<SubscriptionState[]>;
  /** Closes the customer's checkout pages still open, so none of them can be paid any more. */
  expireOpenCheckouts(customerId: string): Promise<void>;
  invoice(id: string): Promise<InvoiceState>;
  checkout(id: string): Promise<CheckoutState>;
  /** Checks the signature over the raw body; `invalid_signature` when it does not match. */
  verifyEvent(rawBody: string, signature: string | undefined): Promise<BillingEvent>;
}

function notConfigured(): never {
  throw new DomainError('billing_not_configured', 'Billing is not configured on this Podtext server: paid plans cannot be bought here.');
}

/** Used until a payment provider is configured: nothing can be bought, no event is accepted. */
export const noBillingProvider: BillingProvider = {
  enabled: false,
  createCustomer: async () => notConfigured(),
  checkoutUrl: async () => notConfigured(),
  portalUrl: async () => notConfigured(),
  subscription: async () => notConfigured(),
  latestSubscription: async () => notConfigured(),
  liveSubscriptions: async () => notConfigured(),
  expireOpenCheckouts: async () => notConfigured(),
  invoice: async () => notConfigured(),
  checkout: async () => notConfigured(),
  verifyEvent: async () => notConfigured(),
};
