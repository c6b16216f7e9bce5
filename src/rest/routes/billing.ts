import { createRoute, z, type OpenAPIHono } from '@hono/zod-openapi';
import { paidPlanNames } from '../../core/accounts/billing.js';
import { plans } from '../../core/pricing.js';
import type { RestEnv } from '../env.js';
import { errors, keyed, keyedErrors, ok } from '../schemas/common.js';

const planLines = paidPlanNames.map((p) => `\`${p}\`: ${plans[p].monthlyCredits} credits a month for $${plans[p].priceUsd}, ${plans[p].dailyRequests} requests a day`).join('; ');

const checkoutRoute = createRoute({
  method: 'post', path: '/billing/checkout', operationId: 'startCheckout', tags: ['Account'],
  summary: 'Buy a paid plan: a hosted checkout page of the payment provider',
  description:
    `An addition to the spec. Open the answered \`url\` in a browser to subscribe. Plans: ${planLines}. ` +
    'Once paid, the plan applies at once (`GET /me` shows it with `billing_managed: true`) and the balance becomes the plan\'s credits; ' +
    'each renewal resets it (no rollover). Change plan or cancel later through `POST /billing/portal`. ' +
    'A new checkout closes any checkout page of this account still open, so only the newest can be paid. 1 request, 0 credits.',
  security: keyed,
  request: {
    body: {
      required: true,
      content: { 'application/json': { schema: z.object({ plan: z.string().openapi({ enum: paidPlanNames, example: 'plus', description: 'The paid plan to buy.' }) }).strict().openapi('CheckoutRequest') } },
    },
  },
  responses: {
    200: ok(z.object({ url: z.string().openapi({ description: "The payment provider's checkout page for this account and plan." }) }).openapi('CheckoutSession'), 'Checkout URL'),
    ...errors({
      ...keyedErrors,
      400: 'Unknown plan (`invalid_request`, naming `plan`), or malformed input.',
      409: 'Billing is not configured on this server, or Stripe does not have the price configured for this plan (`billing_not_configured`), or the account already has a live subscription, one paid moments ago included (`already_subscribed`: use the portal).',
      502: 'The payment provider could not be reached; try again.',
    }),
  },
});

export function registerBillingRoutes(api: OpenAPIHono<RestEnv>): void {
  api.openapi(checkoutRoute, async (c) => c.json(await c.get('services').billing.checkout(c.get('actor'), c.req.valid('json').plan), 200));
}
