import { type StartOptions, type TestAccount, type TestPodtext, startTestPodtext } from './podtext.js';
import { fakeClock, type FakeClock } from './fake-clock.js';
import { type StripeStandin, startStripeStandin } from './stripe-standin.js';

export const STRIPE_TEST_PRICES = { plus: 'price_test_plus', pro: 'price_test_pro', business: 'price_test_business' };
export const STRIPE_TEST_WEBHOOK_SECRET = 'whsec_test_podtext';

export interface BillingTestbed {
  t: TestPodtext;
  /** The environment that turns billing on against the stand-in. */
  env: Record<string, string>;
  stripe: StripeStandin;
  clock: FakeClock;
  /** Buys `plan` for `account` through REST checkout and pays at the stand-in; returns the subscription id. */
  subscribe(account: TestAccount, plan: 'plus' | 'pro' | 'business'): Promise<{ subscriptionId: string; invoiceId: string; sessionId: string }>;
  close(): Promise<void>;
}

/** A Podtext with billing on, its SDK talking to a stand-in Stripe that sends its events back signed. */
export async function startBillingTestbed(options: StartOptions & { start?: string } = {}): Promise<BillingTestbed> {
  const clock = fakeClock(options.start ?? '2026-03-10T12:00:00Z');
  const stripe = await startStripeStandin({ clock, webhookSecret: STRIPE_TEST_WEBHOOK_SECRET, prices: STRIPE_TEST_PRICES });
  const env = {
    STRIPE_SECRET_KEY: 'sk_test_podtext',
    STRIPE_WEBHOOK_SECRET: STRIPE_TEST_WEBHOOK_SECRET,
    STRIPE_PRICE_PLUS: STRIPE_TEST_PRICES.plus,
    STRIPE_PRICE_PRO: STRIPE_TEST_PRICES.pro,
    STRIPE_PRICE_BUSINESS: STRIPE_TEST_PRICES.business,
    STRIPE_API_URL: stripe.url,
    ...options.env,
  };
  const t = await startTestPodtext({
    clock,
    // Every count goes to the database, so a test can set today's count directly.
    exactMeteringBelow: 1_000_000,
    ...options,
    env,
  });
  stripe.deliver = (body, signature) => t.request('/billing/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body });
  return {
    t,
    env,
    stripe,
    clock,
    async subscribe(account, plan) {
      const res = await t.api('POST', '/billing/checkout', { key: account.key, body: { plan } });
      if (res.status !== 200) throw new Error(`checkout answered ${res.status}: ${await res.text()}`);
      const { url } = (await res.json()) as { url: string };
      const sessionId = url.split('/').pop()!;
      const done = stripe.completeCheckout(sessionId);
      for (const r of await stripe.sendAll(done.events)) if (r.status !== 200) throw new Error(`webhook answered ${r.status}: ${await r.text()}`);
      return { subscriptionId: done.subscriptionId, invoiceId: done.invoiceId, sessionId };
    },
    async close() {
      await t.close();
      await stripe.close();
    },
  };
}
