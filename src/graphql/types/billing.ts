import { paidPlanNames } from '../../core/accounts/billing.js';
import { plans } from '../../core/pricing.js';
import { builder } from '../builder.js';
import { operation } from '../operation-field.js';
import { requireActor } from '../require-actor.js';

const CheckoutResult = builder.objectRef<{ url: string }>('BillingCheckoutResult').implement({
  description: "The payment provider's hosted checkout page.",
  fields: (t) => ({ url: t.exposeString('url', { description: 'Open in a browser to subscribe.' }) }),
});

const planList = paidPlanNames.map((p) => `${p} (${plans[p].monthlyCredits} credits, $${plans[p].priceUsd}/month, ${plans[p].dailyRequests} requests/day)`).join(', ');

builder.mutationFields((t) => ({
  startCheckout: t.field({
    ...operation('startCheckout'),
    type: CheckoutResult,
    description: `Buy a paid plan: ${planList}. Answers the checkout page URL (1 request, 0 credits). Errors: invalid_request for an unknown plan, billing_not_configured, already_subscribed (use billingPortal).`,
    args: { plan: t.arg.string({ required: true, description: `One of ${paidPlanNames.join(', ')}.` }) },
    resolve: (_r, { plan }, ctx) => ctx.services.billing.checkout(requireActor(ctx), plan),
  }),
}));
