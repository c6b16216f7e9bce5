import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type BillingTestbed, startBillingTestbed } from '../support/billing.js';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

/** Two Podtext processes on one PostgreSQL database; Stripe's events reach the first only. */
describe.skipIf(!hasPostgres())('billing across processes (PostgreSQL)', () => {
  let bed: BillingTestbed;
  let other: TestPodtext;
  beforeAll(async () => {
    bed = await startBillingTestbed({ postgres: true });
    other = await startTestPodtext({ databaseUrl: bed.t.podtext.config.databaseUrl!, clock: bed.clock, exactMeteringBelow: 1_000_000, env: bed.env });
  });
  afterAll(async () => {
    await other?.close();
    await bed?.close();
  });

  async function limitThere(t: TestPodtext, key: string): Promise<{ plan: string; limit: string | null }> {
    const res = await t.api('GET', '/me', { key });
    return { plan: ((await res.json()) as { plan: string }).plan, limit: res.headers.get('x-ratelimit-limit') };
  }

  it('a plan bought through one process shows at once in the other, whose key and account were cached', async () => {
    const a = await bed.t.account();
    // Warm the other process's caches of this key and account.
    expect(await limitThere(other, a.key)).toEqual({ plan: 'free', limit: '1000' });
    const { subscriptionId } = await bed.subscribe(a, 'pro');
    await expect.poll(() => limitThere(other, a.key), { timeout: 5000 }).toEqual({ plan: 'pro', limit: '20000' });
    await bed.stripe.sendAll(bed.stripe.end(subscriptionId));
    await expect.poll(() => limitThere(other, a.key), { timeout: 5000 }).toEqual({ plan: 'free', limit: '1000' });
  });

  it('the same invoice.paid delivered to both processes at once starts one cycle', async () => {
    const a = await bed.t.account();
    const { url } = (await (await bed.t.api('POST', '/billing/checkout', { key: a.key, body: { plan: 'plus' } })).json()) as { url: string };
    const done = bed.stripe.completeCheckout(url.split('/').pop()!);
    const paid = done.events.find((e) => e.type === 'invoice.paid')!;
    const Stripe = (await import('stripe')).default;
    const deliver = (t: TestPodtext) =>
      t.request('/billing/webhook', {
        method: 'POST',
        headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload: paid.payload, secret: bed.env.STRIPE_WEBHOOK_SECRET! }) },
        body: paid.payload,
      });
    const answers = await Promise.all([deliver(bed.t), deliver(other), deliver(bed.t), deliver(other)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200, 200]);
    const cycles = await bed.t.podtext.services.db.ledgerEntry.findMany({ where: { accountId: a.accountId, kind: 'cycle_reset' } });
    expect(cycles.map((c) => c.reference)).toEqual([`cycle:${a.accountId}:${done.invoiceId}`]);
    expect(await bed.t.podtext.services.db.billingEvent.count({ where: { id: paid.id } })).toBe(1);
    expect(await limitThere(other, a.key)).toEqual({ plan: 'plus', limit: '5000' });
  });
});
