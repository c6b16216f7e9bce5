import type { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { html } from 'hono/html';
import { DomainError, errorStatus } from '../../core/errors.js';
import { plans } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { errorBody } from '../error-response.js';

/** Largest Stripe event accepted, in bytes. Default: 512 KB (Stripe's events are a few KB). */
export const BILLING_WEBHOOK_MAX_BYTES = 512 * 1024;

function page(title: string, body: ReturnType<typeof html>) {
  return html`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${title}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#222}</style></head>
<body>${body}</body></html>`;
}

/**
 * What the payment provider reaches without a key, under `{site_url}`:
 * - `POST /billing/webhook`: Stripe's events, verified over the raw body
 *   (400 `invalid_signature`, nothing changes); 200 once applied, seen
 *   before or ignored; 5xx when Stripe could not be read back, so it retries.
 * - `GET /billing/success?session_id=…`: where Checkout returns the buyer;
 *   syncs the account from Stripe once, idempotently with the webhook.
 */
export function registerBillingReceivers(app: Hono<RestEnv>): void {
  const limit = bodyLimit({ maxSize: BILLING_WEBHOOK_MAX_BYTES, onError: (c) => c.json(errorBody('payload_too_large', 'body: larger than 512 KB'), 413) });
  app.post('/billing/webhook', limit, async (c) => {
    const outcome = await c.get('services').billing.receiveWebhook(await c.req.text(), c.req.header('stripe-signature'));
    return c.json({ received: true, outcome: outcome.outcome }, 200);
  });

  app.get('/billing/success', async (c) => {
    try {
      const r = await c.get('services').billing.completeCheckout(c.req.query('session_id') ?? '');
      if (r.status === 'pending') {
        return c.html(page('Payment pending', html`<h1>Almost there</h1><p>Stripe has not finished your checkout yet. This page shows your plan once it has; reload in a moment.</p>`), 202);
      }
      const plan = plans[r.plan];
      return c.html(
        page(
          `Welcome to Podtext ${plan.title}`,
          html`<h1>Thank you: you are on ${plan.title}</h1>
<p id="plan" data-plan="${plan.name}">Your balance is <strong id="credits">${r.credits}</strong> credits; each month it resets to ${plan.monthlyCredits}. Your key now allows ${plan.dailyRequests} requests a day.</p>
<p>Your API key has not changed. Change or cancel your plan with <a href="/account">Manage billing on your account page</a>, or through <code>POST /api/v1/billing/portal</code>.</p>`,
        ),
      );
    } catch (err) {
      if (!(err instanceof DomainError)) throw err;
      return c.html(page('Checkout', html`<h1>We could not confirm this checkout</h1><p>${err.message}</p>`), errorStatus[err.code] as 400);
    }
  });
}
