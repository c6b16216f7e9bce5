import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetDueCycles } from '../../src/core/accounts/billing-cycle.js';
import { utcDay } from '../../src/core/clock.js';
import * as ledger from '../../src/core/ledger.js';
import { inTransaction } from '../../src/core/transaction.js';
import { type BillingTestbed, STRIPE_TEST_PRICES, startBillingTestbed } from '../support/billing.js';
import type { TestAccount } from '../support/podtext.js';
import type { StripeShape } from '../support/stripe-standin.js';

type Me = { plan: string; credits: number; billing_managed: boolean };
type ErrorBody = { error: { code: string; message: string } };

let bed: BillingTestbed;
beforeAll(async () => {
  bed = await startBillingTestbed();
});
afterAll(() => bed.close());

async function me(key: string): Promise<Me & { limit: number }> {
  const res = await bed.t.api('GET', '/me', { key });
  expect(res.status).toBe(200);
  return { ...((await res.json()) as Me), limit: Number(res.headers.get('x-ratelimit-limit')) };
}

async function spend(account: TestAccount, credits: number, reference: string) {
  await inTransaction(bed.t.podtext.services.db, (tx) => ledger.charge(tx, account.accountId, credits, reference, 'test spend'));
  await bed.t.podtext.services.accounts.changed(account.accountId);
}

async function cycleEntries(accountId: string) {
  return bed.t.podtext.services.db.ledgerEntry.findMany({ where: { accountId, kind: 'cycle_reset' }, orderBy: { id: 'asc' } });
}

/** Sets today's request count, as if the key had made that many calls. */
async function setRequestsToday(accountId: string, count: number) {
  const day = utcDay(bed.clock.now());
  await bed.t.podtext.services.db.$executeRaw`
    INSERT INTO request_counters (account_id, day, count) VALUES (${accountId}::uuid, ${day}::date, ${count})
    ON CONFLICT (account_id, day) DO UPDATE SET count = EXCLUDED.count`;
}

/** Signs in with the key, as a browser does, and reads the account page. */
async function accountPage(key: string): Promise<{ html: string; session: string }> {
  const signin = await bed.t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key, next: '/account' }).toString(), redirect: 'manual' });
  const session = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
  const res = await bed.t.request('/account', { headers: { cookie: session } });
  expect(res.status).toBe(200);
  return { html: await res.text(), session };
}

/** The account page's payment notice, as text. */
function noticeOf(html: string): string {
  return (/<p[^>]*id="payment-notice"[^>]*>([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '').replace(/&#39;/g, "'");
}

describe('checkout', () => {
  it.each<StripeShape>(['current', 'legacy'])('buying Plus (%s Stripe shapes): the plan, 120 credits and 5000 requests a day at once', async (shape) => {
    bed.stripe.shape = shape;
    try {
      const a = await bed.t.account({ credits: 10 });
      const before = bed.stripe.requests.length;
      const res = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } });
      expect(res.status).toBe(200);
      const { url } = (await res.json()) as { url: string };
      expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);

      // The customer first, carrying the account id; then a subscription checkout naming both.
      const calls = bed.stripe.requests.slice(before).filter((r) => r.method === 'POST');
      expect(calls.map((c) => c.path)).toEqual(['/v1/customers', '/v1/checkout/sessions']);
      expect(calls[0]!.body).toMatchObject({ email: a.email, metadata: { account_id: a.accountId } });
      const customerId = [...bed.stripe.customers.values()].find((c) => c.metadata.account_id === a.accountId)!.id;
      expect(calls[1]!.body).toMatchObject({
        mode: 'subscription', customer: customerId, client_reference_id: a.accountId, line_items: { 0: { price: 'price_test_plus', quantity: '1' } },
        success_url: 'http://podtext.test/billing/success?session_id={CHECKOUT_SESSION_ID}',
      });
      expect(await me(a.key)).toMatchObject({ plan: 'free', credits: 10, billing_managed: false, limit: 1000 });

      const done = bed.stripe.completeCheckout(url.split('/').pop()!);
      for (const r of await bed.stripe.sendAll(done.events)) expect(r.status).toBe(200);
      expect(await me(a.key)).toEqual({ plan: 'plus', credits: 120, billing_managed: true, unlocks: [], email: a.email, limit: 5000 });
      const cycles = await cycleEntries(a.accountId);
      expect(cycles.map((c) => [c.reference, c.balanceAfter])).toEqual([[`cycle:${a.accountId}:${done.invoiceId}`, 120]]);
    } finally {
      bed.stripe.shape = 'current';
    }
  });

  it('an unknown plan is refused with 400, and buying twice is sent to the portal', async () => {
    const a = await bed.t.account();
    for (const plan of ['gold', 'free', '']) {
      const res = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan } });
      expect(res.status).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'invalid_request', message: 'plan: one of plus, pro, business' });
    }
    expect((await bed.t.api('POST', '/billing/checkout', { key: a.key, body: {} })).status).toBe(400);
    await bed.subscribe(a, 'plus');
    const again = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'pro' } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorBody).error.code).toBe('already_subscribed');
  });

  it('the success page shows the plan before the webhook arrives, and the webhook then grants nothing more', async () => {
    const a = await bed.t.account({ credits: 10 });
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'pro' } })).json()) as { url: string };
    const sessionId = url.split('/').pop()!;
    const early = await bed.t.request(`/billing/success?session_id=${sessionId}`);
    expect(early.status).toBe(202);
    const done = bed.stripe.completeCheckout(sessionId);
    const page = await bed.t.request(`/billing/success?session_id=${sessionId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('you are on Pro');
    // The address travels (history, a forwarded link): the balance is for the account's own session.
    expect(html).not.toContain('id="credits"');
    expect(html).toContain('Sign in</a> to see your balance');
    const seenBy = async (key: string) => {
      const signin = await bed.t.request('/signin', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ key }).toString(), redirect: 'manual' });
      const cookie = signin.headers.getSetCookie().find((c) => c.startsWith('podtext_session='))!.split(';')[0]!;
      return (await bed.t.request(`/billing/success?session_id=${sessionId}`, { headers: { cookie } })).text();
    };
    expect(await seenBy(a.key)).toContain('<strong id="credits">500</strong>');
    expect(await seenBy((await bed.t.account({ credits: 1 })).key)).not.toContain('id="credits"');
    expect(await me(a.key)).toMatchObject({ plan: 'pro', credits: 500, billing_managed: true, limit: 20000 });
    await spend(a, 7, `spend:${a.accountId}:1`);
    for (const r of await bed.stripe.sendAll(done.events)) expect(r.status).toBe(200);
    expect((await me(a.key)).credits).toBe(493);
    expect(await cycleEntries(a.accountId)).toHaveLength(1);
    const refused = await bed.t.request('/billing/success?session_id=nope');
    expect(refused.status).toBe(400);
    // Pages of the site: its navigation and main landmark, and a way on from a refusal.
    expect(html).toContain('<main id="main"');
    expect(html).toContain('<title>Welcome to Podtext Pro · Podtext</title>');
    const refusal = await refused.text();
    expect(refusal).toContain('<main id="main"');
    expect(refusal).toContain('href="/"');
    expect(refusal).not.toContain('session_id:');
  });

  it('a flood of the keyless success page cannot spend Stripe\'s rate limit: past a burst it answers 429 with Retry-After, asking Stripe nothing', async () => {
    const before = bed.stripe.requests.length;
    const pages = await Promise.all(Array.from({ length: 60 }, (_, i) => bed.t.request(`/billing/success?session_id=cs_flood_${i}`)));
    const refused = pages.filter((p) => p.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(30);
    expect(refused[0]!.headers.get('retry-after')).toBe('2');
    expect(await refused[0]!.text()).toContain('reload this page in a few seconds');
    // Each page let through asks Stripe once: the burst, not the flood.
    expect(bed.stripe.requests.length - before).toBeLessThanOrEqual(30);
    await new Promise((r) => setTimeout(r, 2000));
    const a = await bed.t.account();
    const { sessionId } = await bed.subscribe(a, 'plus');
    expect((await bed.t.request(`/billing/success?session_id=${sessionId}`)).status).toBe(200);
  });

  it('the success page of a checkout whose subscription has since ended says so, and does not thank the buyer for Free', async () => {
    const a = await bed.t.account();
    const { subscriptionId, sessionId } = await bed.subscribe(a, 'plus');
    for (const r of await bed.stripe.sendAll(bed.stripe.end(subscriptionId))) expect(r.status).toBe(200);
    const page = await bed.t.request(`/billing/success?session_id=${sessionId}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toContain('Thank you');
    expect(html).toContain('This subscription has ended');
    expect(await me(a.key)).toMatchObject({ plan: 'free' });
  });
});

describe('one subscription per account', () => {
  it('a new checkout closes the one left open in another tab, so only the newest can be paid', async () => {
    const a = await bed.t.account();
    const sessions: string[] = [];
    for (const plan of ['plus', 'pro']) {
      const res = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan } });
      expect(res.status).toBe(200);
      sessions.push(((await res.json()) as { url: string }).url.split('/').pop()!);
    }
    expect(bed.stripe.sessions.get(sessions[0]!)!.status).toBe('expired');
    expect(() => bed.stripe.completeCheckout(sessions[0]!)).toThrow(/expired/);
    const done = bed.stripe.completeCheckout(sessions[1]!);
    for (const r of await bed.stripe.sendAll(done.events)) expect(r.status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'pro', credits: 500 });
  });

  it('ten checkouts at once leave one page open', async () => {
    const a = await bed.t.account();
    const answers = await Promise.all(Array.from({ length: 10 }, () => bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })));
    for (const r of answers) expect(r.status).toBe(200);
    const customer = [...bed.stripe.customers.values()].find((c) => c.metadata.account_id === a.accountId)!.id;
    expect([...bed.stripe.sessions.values()].filter((x) => x.customer === customer && x.status === 'open')).toHaveLength(1);
  });

  it('paid moments ago, events not yet delivered: a second checkout is refused and the plan shows', async () => {
    const a = await bed.t.account();
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })).json()) as { url: string };
    bed.stripe.completeCheckout(url.split('/').pop()!);
    const again = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'pro' } });
    expect(again.status).toBe(409);
    expect(((await again.json()) as ErrorBody).error.code).toBe('already_subscribed');
    expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120, billing_managed: true });
  });

  it('a second subscription paid anyway does not displace the first; when either ends, the account follows the one still live', async () => {
    const a = await bed.t.account();
    const first = await bed.subscribe(a, 'plus');
    // A checkout made behind Podtext's back (two processes racing), paid too.
    const customer = bed.stripe.subscriptions.get(first.subscriptionId)!.customer as string;
    const form = new URLSearchParams({ mode: 'subscription', customer, client_reference_id: a.accountId, 'line_items[0][price]': 'price_test_pro', 'line_items[0][quantity]': '1', success_url: 'http://podtext.test/s' });
    const made = await fetch(`${bed.stripe.url}/v1/checkout/sessions`, { method: 'POST', headers: { authorization: 'Bearer sk_test_podtext', 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    const second = bed.stripe.completeCheckout(((await made.json()) as { id: string }).id);
    for (const r of await bed.stripe.sendAll(second.events)) expect(r.status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120 });
    // The duplicate is cancelled: still Plus, not Free.
    for (const r of await bed.stripe.sendAll(bed.stripe.end(second.subscriptionId))) expect(r.status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'plus', limit: 5000 });
    // Had the first ended instead, the live one takes over.
    const third = bed.stripe.completeCheckout(((await (await fetch(`${bed.stripe.url}/v1/checkout/sessions`, { method: 'POST', headers: { authorization: 'Bearer sk_test_podtext', 'content-type': 'application/x-www-form-urlencoded' }, body: form })).json()) as { id: string }).id);
    await bed.stripe.sendAll(third.events);
    for (const r of await bed.stripe.sendAll(bed.stripe.end(first.subscriptionId))) expect(r.status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'pro', limit: 20000, billing_managed: true });
  });
});

describe('cycles and plan changes', () => {
  it('a renewal resets the balance to the allowance (no rollover), once per invoice', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    await bed.t.podtext.services.accounts.grantCredits(a.email, 30, 'goodwill');
    expect((await me(a.key)).credits).toBe(150);
    bed.clock.set(new Date(bed.stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end * 1000));
    try {
      const renewal = bed.stripe.renew(subscriptionId);
      for (const r of await bed.stripe.sendAll(renewal.events)) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120 });
      await spend(a, 20, `spend:${a.accountId}:renewal`);
      // The same invoice.paid delivered again, and the same invoice under another event id.
      const again = await bed.stripe.send(renewal.events[0]!);
      expect(await again.json()).toMatchObject({ outcome: 'duplicate' });
      const sameInvoice = bed.stripe.event('invoice.payment_succeeded', JSON.parse(renewal.events[0]!.payload).data.object);
      expect((await bed.stripe.send(sameInvoice)).status).toBe(200);
      expect((await me(a.key)).credits).toBe(100);
      const cycles = await cycleEntries(a.accountId);
      expect(cycles.filter((c) => c.reference === `cycle:${a.accountId}:${renewal.invoiceId}`)).toHaveLength(1);
      expect(cycles).toHaveLength(2);
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('an upgrade mid-cycle applies now: Pro limits and the allowance topped up; the proration invoice starts no cycle', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    await spend(a, 20, `spend:${a.accountId}:before-upgrade`);
    bed.clock.advance(10 * 86_400_000);
    try {
      for (const r of await bed.stripe.sendAll(bed.stripe.changePlan(subscriptionId, 'pro'))) expect(r.status).toBe(200);
      // 21 of the period's 31 days left: the allowance's difference (380) for that share, as Stripe charges the switch.
      const topUp = Math.round((380 * 21) / 31);
      expect(await me(a.key)).toMatchObject({ plan: 'pro', credits: 100 + topUp, limit: 20000 });
      // Down and up again in the same cycle tops up nothing more.
      await bed.stripe.sendAll(bed.stripe.changePlan(subscriptionId, 'plus'));
      expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 100 + topUp, limit: 5000 });
      await bed.stripe.sendAll(bed.stripe.changePlan(subscriptionId, 'pro'));
      expect(await me(a.key)).toMatchObject({ plan: 'pro', credits: 100 + topUp, limit: 20000 });
      expect(await cycleEntries(a.accountId)).toHaveLength(1);
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it("a first purchase is no upgrade: a month-old Free account's subscription events before its paid invoice grant nothing", async () => {
    bed.clock.set('2026-01-05T12:00:00Z');
    try {
      const a = await bed.t.account({ credits: 10 });
      const { db, clock, accounts } = bed.t.podtext.services;
      // A month on, Free's own cycle has started: the account's cycle allowance is Free's 10.
      bed.clock.set('2026-02-06T12:00:00Z');
      expect(await resetDueCycles(db, clock, accounts.changed)).toContain(a.accountId);
      const res = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'business' } });
      const done = bed.stripe.completeCheckout(((await res.json()) as { url: string }).url.split('/').pop()!);
      const [created, paid, completed] = done.events;
      // Stripe sends an update right after the creation (the default payment method set); the paid invoice comes later.
      const updated = bed.stripe.event('customer.subscription.updated', JSON.parse(created!.payload).data.object, { default_payment_method: null });
      for (const r of await bed.stripe.sendAll([created!, updated])) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'business', credits: 10 });
      const entries = await db.ledgerEntry.findMany({ where: { accountId: a.accountId, memo: { startsWith: 'Upgrade' } } });
      expect(entries).toEqual([]);
      await spend(a, 10, `spend:${a.accountId}:before-invoice`);
      for (const r of await bed.stripe.sendAll([paid!, completed!])) expect(r.status).toBe(200);
      // One payment, one allowance: 2000 credits, however the events were ordered.
      expect(await me(a.key)).toMatchObject({ plan: 'business', credits: 2000 });
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('a price change leaves subscribers on the earlier price: listed after the new one, they keep their plan and its renewals', async () => {
    // The operator raised Plus's price: a new price sold first, the earlier one listed after it.
    const priced = await startBillingTestbed({ env: { STRIPE_PRICE_PLUS: `${STRIPE_TEST_PRICES.plus},price_test_plus_2025` } });
    try {
      const a = await priced.t.account();
      const { subscriptionId } = await priced.subscribe(a, 'plus');
      const sub = priced.stripe.subscriptions.get(subscriptionId)!;
      expect(sub.items.data[0].price.id).toBe(STRIPE_TEST_PRICES.plus);
      // This subscriber bought before the change: Stripe keeps it on the earlier price.
      sub.items.data[0].price = { ...sub.items.data[0].price, id: 'price_test_plus_2025' };
      priced.clock.set(new Date(sub.items.data[0].current_period_end * 1000));
      const renewal = priced.stripe.renew(subscriptionId);
      for (const r of await priced.stripe.sendAll(renewal.events)) expect(r.status).toBe(200);
      const res = await priced.t.api('GET', '/me', { key: a.key });
      expect(await res.json()).toMatchObject({ plan: 'plus', credits: 120 });
      expect(res.headers.get('x-ratelimit-limit')).toBe('5000');
    } finally {
      await priced.close();
    }
  });

  it('an upgrade billed on the next invoice: its proration lines do not stop the renewal from starting the Pro cycle', async () => {
    for (const shape of ['current', 'legacy'] as const) {
      bed.stripe.shape = shape;
      const a = await bed.t.account();
      const { subscriptionId } = await bed.subscribe(a, 'plus');
      bed.clock.advance(10 * 86_400_000);
      try {
        for (const r of await bed.stripe.sendAll(bed.stripe.changePlan(subscriptionId, 'pro', 'next_invoice'))) expect(r.status).toBe(200);
        const topUp = Math.round((380 * 21) / 31);
        expect(await me(a.key)).toMatchObject({ plan: 'pro', credits: 120 + topUp });
        bed.clock.set(new Date(bed.stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end * 1000));
        const renewal = bed.stripe.renew(subscriptionId);
        for (const r of await bed.stripe.sendAll(renewal.events)) expect(r.status).toBe(200);
        // No rollover: the renewal makes the balance Pro's allowance, once.
        expect(await me(a.key), shape).toMatchObject({ plan: 'pro', credits: 500 });
        expect((await cycleEntries(a.accountId)).filter((c) => c.reference === `cycle:${a.accountId}:${renewal.invoiceId}`)).toHaveLength(1);
      } finally {
        bed.stripe.shape = 'current';
        bed.clock.set('2026-03-10T12:00:00Z');
      }
    }
  });

  it("a period anchored on the 31st ends where Stripe says (Feb 28 to Mar 31): /usage shows it, and Free's cycle starts then", async () => {
    bed.clock.set('2026-01-31T12:00:00Z');
    try {
      const a = await bed.t.account();
      const { subscriptionId } = await bed.subscribe(a, 'plus');
      const item = () => bed.stripe.subscriptions.get(subscriptionId)!.items.data[0];
      bed.clock.set(new Date(item().current_period_end * 1000));
      for (const r of await bed.stripe.sendAll(bed.stripe.renew(subscriptionId).events)) expect(r.status).toBe(200);
      const usage = async () => (await (await bed.t.api('GET', '/usage', { key: a.key })).json()) as { plan: string; cycle_started_at: string; cycle_ends_at: string };
      expect(await usage()).toMatchObject({ plan: 'plus', cycle_started_at: '2026-02-28T12:00:00.000Z', cycle_ends_at: '2026-03-31T12:00:00.000Z' });
      // Cancelled at period end, the subscription is deleted on Mar 31: Free's first cycle runs from there.
      await bed.stripe.sendAll(bed.stripe.cancelAtPeriodEnd(subscriptionId));
      bed.clock.set('2026-03-31T12:00:00Z');
      for (const r of await bed.stripe.sendAll(bed.stripe.end(subscriptionId))) expect(r.status).toBe(200);
      expect(await usage()).toMatchObject({ plan: 'free', cycle_started_at: '2026-03-31T12:00:00.000Z', cycle_ends_at: '2026-04-30T12:00:00.000Z' });
      expect(await me(a.key)).toMatchObject({ plan: 'free', credits: 10 });
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('cancel at period end keeps the plan until the subscription is deleted, then Free: 1000 requests and 10 credits from the next cycle', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    await spend(a, 50, `spend:${a.accountId}:cancel`);
    for (const r of await bed.stripe.sendAll(bed.stripe.cancelAtPeriodEnd(subscriptionId))) expect(r.status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 70, limit: 5000, billing_managed: true });
    const periodEnd = bed.stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end * 1000;
    bed.clock.set(new Date(periodEnd));
    try {
      for (const r of await bed.stripe.sendAll(bed.stripe.end(subscriptionId))) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'free', credits: 10, limit: 1000, billing_managed: true });
      const last = (await cycleEntries(a.accountId)).at(-1)!;
      expect(last.reference).toBe(`cycle:${a.accountId}:${utcDay(new Date(periodEnd))}`);
      // The portal still opens for a past subscription.
      expect((await bed.t.api('POST', '/billing/portal', { key: a.key })).status).toBe(200);
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('a late customer.subscription.updated after the deletion does not bring the plan back', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'business');
    const staleUpdate = bed.stripe.cancelAtPeriodEnd(subscriptionId);
    const deleted = bed.stripe.end(subscriptionId);
    expect((await bed.stripe.sendAll(deleted))[0]!.status).toBe(200);
    const late = await bed.stripe.send(staleUpdate[0]!);
    expect(late.status).toBe(200);
    expect(JSON.parse(staleUpdate[0]!.payload).data.object.status).toBe('active');
    expect(await me(a.key)).toMatchObject({ plan: 'free', limit: 1000 });
  });

  it('daily limit: 5000 right after buying Plus, 1000 right after the deletion', async () => {
    const free = await bed.t.account();
    await setRequestsToday(free.accountId, 1500);
    expect((await bed.t.api('GET', '/usage', { key: free.key })).status).toBe(429);
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    await setRequestsToday(a.accountId, 1500);
    const ok = await bed.t.api('GET', '/usage', { key: a.key });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('x-ratelimit-limit')).toBe('5000');
    expect(((await ok.json()) as { request_limit: number }).request_limit).toBe(5000);
    await bed.stripe.sendAll(bed.stripe.end(subscriptionId));
    const refused = await bed.t.api('GET', '/usage', { key: a.key });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it('an older invoice paid (or delivered) late does not reset the cycle running now', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    const periodEnd = () => new Date(bed.stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end * 1000);
    bed.clock.set(periodEnd());
    try {
      const failed = bed.stripe.renew(subscriptionId, false);
      await bed.stripe.sendAll(failed.events);
      bed.clock.set(periodEnd());
      const next = bed.stripe.renew(subscriptionId, true);
      for (const r of await bed.stripe.sendAll(next.events)) expect(r.status).toBe(200);
      await spend(a, 5, `spend:${a.accountId}:late-invoice`);
      expect((await me(a.key)).credits).toBe(115);
      for (const r of await bed.stripe.sendAll(bed.stripe.payInvoice(failed.invoiceId))) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 115 });
      expect((await cycleEntries(a.accountId)).map((c) => c.reference)).not.toContain(`cycle:${a.accountId}:${failed.invoiceId}`);
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });

  it('past_due keeps the plan and grants nothing; unpaid falls to Free; paying restores the plan with a new cycle', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    await spend(a, 100, `spend:${a.accountId}:dunning`);
    bed.clock.set(new Date(bed.stripe.subscriptions.get(subscriptionId)!.items.data[0].current_period_end * 1000));
    try {
      expect((await accountPage(a.key)).html).not.toContain('id="payment-notice"');
      const failed = bed.stripe.renew(subscriptionId, false);
      for (const r of await bed.stripe.sendAll(failed.events)) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 20, limit: 5000 });
      // The account page says why no credits arrived, and what to do.
      expect(noticeOf((await accountPage(a.key)).html)).toMatch(/could not charge your card.*update your card with Manage billing/);
      await bed.stripe.sendAll(bed.stripe.markUnpaid(subscriptionId));
      // Unpaid: Free's limits, and Free's 10 credits for the cycle nobody paid for.
      expect(await me(a.key)).toMatchObject({ plan: 'free', credits: 10, limit: 1000, billing_managed: true });
      expect(noticeOf((await accountPage(a.key)).html)).toMatch(/unpaid.*Free's limits until the invoice is paid/);
      const checkout = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } });
      expect(((await checkout.json()) as ErrorBody).error.code).toBe('already_subscribed');
      for (const r of await bed.stripe.sendAll(bed.stripe.payInvoice(failed.invoiceId))) expect(r.status).toBe(200);
      expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120, limit: 5000 });
      expect((await accountPage(a.key)).html).not.toContain('id="payment-notice"');
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });
});

describe('webhook receiver', () => {
  it('a bad or missing signature is refused with 400 and changes nothing', async () => {
    const a = await bed.t.account();
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })).json()) as { url: string };
    const done = bed.stripe.completeCheckout(url.split('/').pop()!);
    const forged = await bed.stripe.send(done.events[1]!, 'whsec_someone_else');
    expect(forged.status).toBe(400);
    expect(((await forged.json()) as ErrorBody).error.code).toBe('invalid_signature');
    const unsigned = await bed.t.request('/billing/webhook', { method: 'POST', body: done.events[1]!.payload });
    expect(unsigned.status).toBe(400);
    const signature = Stripe.webhooks.generateTestHeaderString({ payload: done.events[1]!.payload, secret: 'whsec_test_podtext' });
    const tampered = await bed.t.request('/billing/webhook', { method: 'POST', headers: { 'stripe-signature': signature }, body: done.events[1]!.payload.replace('"paid"', '"void"') });
    expect(tampered.status).toBe(400);
    expect(((await tampered.json()) as ErrorBody).error.message).toContain('does not match');
    // Signed rightly, but ten minutes ago (a replay, or this server's clock is off): said as such, not as a wrong secret.
    const tenMinutesAgo = Math.floor(Date.now() / 1000) - 600;
    const stale = Stripe.webhooks.generateTestHeaderString({ payload: done.events[1]!.payload, secret: 'whsec_test_podtext', timestamp: tenMinutesAgo });
    const replayed = await bed.t.request('/billing/webhook', { method: 'POST', headers: { 'stripe-signature': stale }, body: done.events[1]!.payload });
    expect(replayed.status).toBe(400);
    const error = ((await replayed.json()) as ErrorBody).error;
    expect(error).toMatchObject({ code: 'invalid_signature', message: expect.stringContaining('more than 5 minutes') });
    expect(error.message).not.toContain('does not match');
    expect(await me(a.key)).toMatchObject({ plan: 'free', billing_managed: false });
    expect(await bed.t.podtext.services.db.billingEvent.count({ where: { id: { in: done.events.map((e) => e.id) } } })).toBe(0);
  });

  it('answers 5xx while Stripe cannot be read back, so Stripe retries; the retry applies', async () => {
    const a = await bed.t.account();
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })).json()) as { url: string };
    const sessionId = url.split('/').pop()!;
    const done = bed.stripe.completeCheckout(sessionId);
    bed.stripe.down = true;
    try {
      // Every kind of event, and the success page: each read that fails is the caller's 5xx, never the server's end.
      for (const e of done.events) {
        const res = await bed.stripe.send(e);
        expect(res.status).toBeGreaterThanOrEqual(500);
      }
      expect((await bed.t.request(`/billing/success?session_id=${sessionId}`)).status).toBe(502);
      expect(await bed.t.podtext.services.db.billingEvent.count({ where: { id: { in: done.events.map((e) => e.id) } } })).toBe(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
    } finally {
      bed.stripe.down = false;
    }
    expect((await bed.stripe.send(done.events[1]!)).status).toBe(200);
    expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120 });
  });

  it('answers 502 well within the shutdown grace period while Stripe does not answer at all', async () => {
    const a = await bed.t.account();
    bed.stripe.hang = true;
    try {
      const started = Date.now();
      const res = await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } });
      expect(res.status).toBe(502);
      expect(((await res.json()) as ErrorBody).error.code).toBe('upstream_failed');
      // SHUTDOWN_GRACE_SECONDS defaults to 25: a buyer is not kept waiting longer, nor is a restart held up.
      expect(Date.now() - started).toBeLessThan(25_000);
    } finally {
      bed.stripe.hang = false;
    }
  }, 90_000);

  it('a signed body that is no Stripe event is refused with 400; an event about an object Stripe does not have is ignored', async () => {
    for (const payload of ['hello', 'null', '[]', '{"type":"invoice.paid","data":{"object":{"id":"in_nope"}}}']) {
      const signature = Stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test_podtext' });
      const res = await bed.t.request('/billing/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
      expect(res.status, payload).toBe(400);
      expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'invalid_request' });
    }
    for (const e of [bed.stripe.event('customer.subscription.updated', { id: 'sub_does_not_exist', object: 'subscription' }), bed.stripe.event('invoice.paid', { id: 'in_does_not_exist', object: 'invoice' })]) {
      const res = await bed.stripe.send(e);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ outcome: 'ignored' });
      expect((await bed.stripe.send(e)).status).toBe(200);
    }
    expect((await bed.t.request('/billing/success?session_id=cs_test_nope')).status).toBe(404);
  });

  it('answers 2xx to event types it does not use', async () => {
    const res = await bed.stripe.send(bed.stripe.event('customer.updated', { id: 'cus_unknown', object: 'customer' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ outcome: 'ignored' });
  });
});

describe('billing portal', () => {
  it('200 with a Stripe portal URL once subscribed, also after key rotation; 400 for a key that never subscribed', async () => {
    const never = await bed.t.account();
    const res400 = await bed.t.api('POST', '/billing/portal', { key: never.key });
    expect(res400.status).toBe(400);
    expect(((await res400.json()) as ErrorBody).error.code).toBe('not_subscribed');
    // Starting a checkout without paying is not subscribing.
    await bed.t.api('POST', '/billing/checkout', { key: never.key, body: { plan: 'plus' } });
    expect((await bed.t.api('POST', '/billing/portal', { key: never.key })).status).toBe(400);

    const a = await bed.t.account();
    await bed.subscribe(a, 'plus');
    const portal = await bed.t.api('POST', '/billing/portal', { key: a.key });
    expect(portal.status).toBe(200);
    expect(((await portal.json()) as { url: string }).url).toMatch(/^https:\/\/billing\.stripe\.com\/p\/session\/bps_test_/);
    const customer = bed.stripe.requests.at(-1)!;
    expect(customer).toMatchObject({ path: '/v1/billing_portal/sessions', body: { return_url: 'http://podtext.test/account' } });

    const { key } = (await (await bed.t.api('POST', '/key/rotate', { key: a.key })).json()) as { key: string };
    expect(await me(key)).toMatchObject({ plan: 'plus', credits: 120, billing_managed: true, limit: 5000 });
    expect((await bed.t.api('POST', '/billing/portal', { key })).status).toBe(200);
    expect(bed.stripe.requests.at(-1)!.body.customer).toBe(customer.body.customer);
  });

  it('the portal of a customer deleted in Stripe answers 400 not_subscribed, as documented, not 404', async () => {
    const a = await bed.t.account();
    await bed.subscribe(a, 'plus');
    const customer = [...bed.stripe.customers.values()].find((c) => c.metadata.account_id === a.accountId)!;
    bed.stripe.customers.delete(customer.id);
    const res = await bed.t.api('POST', '/billing/portal', { key: a.key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'not_subscribed', message: expect.stringContaining('no longer') });
  });

  it('an account whose customer was deleted in Stripe after its subscription ended can buy again: a new customer is made', async () => {
    const a = await bed.t.account();
    const { subscriptionId } = await bed.subscribe(a, 'plus');
    for (const r of await bed.stripe.sendAll(bed.stripe.end(subscriptionId))) expect(r.status).toBe(200);
    const old = [...bed.stripe.customers.values()].find((c) => c.metadata.account_id === a.accountId)!;
    bed.stripe.customers.delete(old.id);
    await bed.subscribe(a, 'pro');
    expect(await me(a.key)).toMatchObject({ plan: 'pro', billing_managed: true });
    const customers = [...bed.stripe.customers.values()].filter((c) => c.metadata.account_id === a.accountId);
    expect(customers.map((c) => c.id)).not.toContain(old.id);
    expect(customers).toHaveLength(1);
  });

  it('a price Stripe does not have refuses checkout as not configured (409) and leaves the customer alone', async () => {
    const typo = await startBillingTestbed({ env: { STRIPE_PRICE_PRO: 'price_test_pro_typo' } });
    try {
      const a = await typo.t.account();
      for (let i = 0; i < 2; i++) {
        const res = await typo.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'pro' } });
        expect(res.status).toBe(409);
        expect(((await res.json()) as ErrorBody).error).toMatchObject({ code: 'billing_not_configured', message: expect.stringContaining('STRIPE_PRICE_PRO') });
      }
      // One customer for the account, still linked: a missing price is not a customer deleted in Stripe.
      const customers = [...typo.stripe.customers.values()].filter((c) => c.metadata.account_id === a.accountId);
      expect(customers).toHaveLength(1);
      const account = await typo.t.podtext.services.db.account.findUniqueOrThrow({ where: { id: a.accountId } });
      expect(account.billingCustomerId).toBe(customers[0]!.id);
      // The plans whose prices Stripe has still sell.
      expect((await typo.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })).status).toBe(200);
    } finally {
      await typo.close();
    }
  });

  it("an operator cannot set the plan of an account a live subscription pays for: Stripe would go on charging and put it back", async () => {
    const a = await bed.t.account();
    await bed.subscribe(a, 'plus');
    await expect(bed.t.podtext.services.accounts.setPlan(a.email, 'free')).rejects.toMatchObject({ code: 'already_subscribed', message: expect.stringContaining('billing portal') });
    expect(await me(a.key)).toMatchObject({ plan: 'plus', credits: 120, billing_managed: true });
  });

  it('a customer whose events never arrived, or one attached by an operator, is asked of Stripe: 200 and the plan synced if it subscribed, 400 if not', async () => {
    const lost = await bed.t.account();
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: lost.key, body: { plan: 'plus' } })).json()) as { url: string };
    bed.stripe.completeCheckout(url.split('/').pop()!); // paid at Stripe; its events are never delivered
    expect(await me(lost.key)).toMatchObject({ plan: 'free', billing_managed: false });
    expect((await bed.t.api('POST', '/billing/portal', { key: lost.key })).status).toBe(200);
    expect(await me(lost.key)).toMatchObject({ plan: 'plus', billing_managed: true, limit: 5000 });

    // An operator made a customer in Stripe by hand and attached it with `set-plan --customer`.
    const attached = await bed.t.account();
    const stripeUrl = new URL(bed.stripe.url);
    const operator = new Stripe('sk_test_operator', { host: stripeUrl.hostname, port: stripeUrl.port, protocol: 'http' });
    const handMade = await operator.customers.create({ email: attached.email });
    await bed.t.podtext.services.accounts.setPlan(attached.email, 'free', handMade.id);
    const res = await bed.t.api('POST', '/billing/portal', { key: attached.key });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).error.code).toBe('not_subscribed');
  });
});

describe('the website account page', () => {
  it('offers the plans before a subscription, and only Manage billing while one is live; a refused checkout is 409 there too', async () => {
    const a = await bed.t.account();
    const before = await accountPage(a.key);
    expect(before.html.match(/action="\/account\/checkout"/g)).toHaveLength(3);
    expect(before.html).not.toContain('id="manage-billing"');
    await bed.subscribe(a, 'business');
    const after = await accountPage(a.key);
    expect(after.html).not.toContain('action="/account/checkout"');
    expect(after.html).toContain('id="manage-billing"');
    // A page still open from before (the plan buttons): the checkout is refused with the API's status.
    const csrf = /action="\/account\/billing"><input type="hidden" name="csrf" value="([^"]+)"/.exec(after.html)![1]!;
    const refused = await bed.t.request('/account/checkout', { method: 'POST', headers: { cookie: after.session, 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ csrf, plan: 'plus' }).toString() });
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain('Manage billing');
  });
});

describe('the same through GraphQL', () => {
  it('startCheckout, me, billingPortal and the rate-limit header', async () => {
    const a = await bed.t.account();
    const bad = await bed.t.gql('mutation { startCheckout(plan: "gold") { url } }', {}, a.key);
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('invalid_request');
    const portal400 = await bed.t.gql('mutation { billingPortal { url } }', {}, a.key);
    expect(portal400.body.errors?.[0]?.extensions?.code).toBe('not_subscribed');
    const started = await bed.t.gql<{ startCheckout: { url: string } }>('mutation { startCheckout(plan: "plus") { url } }', {}, a.key);
    const url = started.body.data!.startCheckout.url;
    expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_test_/);
    const done = bed.stripe.completeCheckout(url.split('/').pop()!);
    await bed.stripe.sendAll(done.events);
    const after = await bed.t.gql<{ me: { plan: string; credits: number; billingManaged: boolean } }>('{ me { plan credits billingManaged } }', {}, a.key);
    expect(after.body.data!.me).toEqual({ plan: 'plus', credits: 120, billingManaged: true });
    expect(after.headers.get('x-ratelimit-limit')).toBe('5000');
    const portal = await bed.t.gql<{ billingPortal: { url: string } }>('mutation { billingPortal { url } }', {}, a.key);
    expect(portal.body.data!.billingPortal.url).toMatch(/^https:\/\/billing\.stripe\.com\//);
    await bed.stripe.sendAll(bed.stripe.changePlan(done.subscriptionId, 'business'));
    const upgraded = await bed.t.gql<{ usage: { plan: string; requestLimit: number } }>('{ usage { plan requestLimit } }', {}, a.key);
    expect(upgraded.body.data!.usage).toEqual({ plan: 'business', requestLimit: 50000 });
    expect(upgraded.headers.get('x-ratelimit-limit')).toBe('50000');
    await bed.stripe.sendAll(bed.stripe.end(done.subscriptionId));
    const ended = await bed.t.gql<{ me: { plan: string } }>('{ me { plan } }', {}, a.key);
    expect(ended.body.data!.me.plan).toBe('free');
    expect(ended.headers.get('x-ratelimit-limit')).toBe('1000');
  });
});

describe('Free accounts', () => {
  it('the monthly 10-credit reset runs once per cycle across a month boundary; paid cycles are left to Stripe', async () => {
    bed.clock.set('2026-03-31T18:00:00Z');
    try {
      const a = await bed.t.account({ credits: 10 });
      const paid = await bed.t.account();
      await bed.subscribe(paid, 'plus');
      await spend(a, 4, `spend:${a.accountId}:free`);
      const { db, clock, accounts } = bed.t.podtext.services;
      bed.clock.set('2026-04-30T17:59:59Z');
      expect(await resetDueCycles(db, clock, accounts.changed)).not.toContain(a.accountId);
      expect((await me(a.key)).credits).toBe(6);
      bed.clock.set('2026-04-30T18:00:00Z');
      expect(await resetDueCycles(db, clock, accounts.changed)).toContain(a.accountId);
      expect(await resetDueCycles(db, clock, accounts.changed)).not.toContain(a.accountId);
      expect(await me(a.key)).toMatchObject({ plan: 'free', credits: 10 });
      expect((await cycleEntries(a.accountId)).map((c) => c.reference)).toEqual([`cycle:${a.accountId}:2026-04-30`]);
      const usage = (await (await bed.t.api('GET', '/usage', { key: a.key })).json()) as { cycle_started_at: string; cycle_ends_at: string };
      expect(usage).toMatchObject({ cycle_started_at: '2026-04-30T18:00:00.000Z', cycle_ends_at: '2026-05-30T18:00:00.000Z' });
      // The paid account's balance was not touched by the timer.
      expect(await cycleEntries(paid.accountId)).toHaveLength(1);
    } finally {
      bed.clock.set('2026-03-10T12:00:00Z');
    }
  });
});
