import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { RestEnv } from '../env.js';
import { errorBody } from '../error-response.js';

/** Largest Stripe event accepted, in bytes. Default: 512 KB (Stripe's events are a few KB). */
export const BILLING_WEBHOOK_MAX_BYTES = 512 * 1024;

/**
 * What the payment provider reaches without a key, under `{site_url}`:
 * `POST /billing/webhook`, Stripe's events, verified over the raw body
 * (400 `invalid_signature`, nothing changes); 200 once applied, seen before
 * or ignored; 5xx when Stripe could not be read back, so it retries. Where
 * Checkout returns the buyer is a page of the site (site/billing-pages.ts).
 */
export function registerBillingReceivers(app: Hono<RestEnv>): void {
  const limit = bodyLimit({ maxSize: BILLING_WEBHOOK_MAX_BYTES, onError: (c) => c.json(errorBody('payload_too_large', 'body: larger than 512 KB'), 413) });
  app.post('/billing/webhook', limit, async (c) => {
    const outcome = await c.get('services').billing.receiveWebhook(await c.req.text(), c.req.header('stripe-signature'));
    return c.json({ received: true, outcome: outcome.outcome }, 200);
  });
}
