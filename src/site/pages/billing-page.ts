import { html } from 'hono/html';
import type { CheckoutOutcome } from '../../core/accounts/billing-service.js';
import { plans } from '../../core/pricing.js';
import { layout, type PageChrome } from '../layout.js';

/** Where Stripe's Checkout returns a buyer: the plan and balance it gave, or that it is not done yet. */
export function billingSuccessPage(r: CheckoutOutcome, showBalance: boolean, chrome: PageChrome) {
  if (r.status === 'pending') {
    return layout(
      'Payment pending · Podtext',
      html`<h1>Almost there</h1><p role="status">Stripe has not finished your checkout yet. This page shows your plan once it has; reload in a moment.</p>
<p><a href="/account">Go to my account</a></p>`,
      chrome,
    );
  }
  if (r.status === 'ended') {
    return layout(
      'Subscription ended · Podtext',
      html`<h1>This subscription has ended</h1><p role="status" id="plan" data-plan="${r.plan}">This checkout was paid, but its subscription no longer gives your account a plan (it was cancelled, or its payments failed), so the account is on ${plans[r.plan].title}. Your account page shows why, and what you can do.</p>
<p><a href="/account">Go to my account</a></p>`,
      chrome,
    );
  }
  const plan = plans[r.plan];
  return layout(
    `Welcome to Podtext ${plan.title} · Podtext`,
    html`<h1>Thank you: you are on ${plan.title}</h1>
<p id="plan" data-plan="${plan.name}">${showBalance ? html`Your balance is <strong id="credits">${r.credits}</strong> credits; each month` : html`<a href="/signin?next=%2Faccount">Sign in</a> to see your balance. Each month your balance`} resets to ${plan.monthlyCredits}. Your key now allows ${plan.dailyRequests} requests a day.</p>
<p>Your API key has not changed. Change or cancel your plan with <a href="/account">Manage billing on your account page</a>, or through <code>POST /api/v1/billing/portal</code>.</p>`,
    chrome,
  );
}
