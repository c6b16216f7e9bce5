import { freePort } from '../support/free-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifySignature } from '../../src/webhook-signature.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';

type Contents = { deliveries: { received_at: string; headers: Record<string, string>; body: { event: string; job: { id: string } }; raw_body: string }[] };

let t: TestPodtext;
let site: string;
beforeAll(async () => {
  // The site must be reachable over a real socket, as in local use: plain http on loopback.
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  t = await startTestPodtext({ env: { PORT: String(port), SITE_URL: site } });
  await t.podtext.listen();
  t.podtext.startWorkers();
});
afterAll(() => t.close());

async function inboxContents(key: string, id: string, count: number): Promise<Contents> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const contents = (await (await t.api('GET', `/webhooks/inbox/${id}`, { key })).json()) as Contents;
    if (contents.deliveries.length >= count || Date.now() > deadline) return contents;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('a job.done webhook to a test inbox of this Podtext', () => {
  it('arrives through the delivery loop, signed, and verifies with the secret', async () => {
    const a = await t.account();
    const { secret } = (await (await t.api('GET', '/webhooks/secret', { key: a.key })).json()) as { secret: string };
    const inbox = (await (await t.api('POST', '/webhooks/inbox', { key: a.key })).json()) as { id: string; url: string };
    expect(inbox.url).toBe(`${site}/hooks/inbox/${inbox.id}`);
    const url = await t.podtext.services.webhooks.assertWebhookUrl(inbox.url);

    const { jobId, deliveryId } = await finishJob(t.podtext.services, a.accountId, url);
    // What the jobs module does after its transaction commits; the loop wakes on it.
    await t.podtext.services.bus.publish({ type: 'job.updated', accountId: a.accountId, jobId, status: 'done' });

    const { deliveries } = await inboxContents(a.key, inbox.id, 1);
    expect(deliveries).toHaveLength(1);
    const d = deliveries[0]!;
    expect(d.headers).toMatchObject({ 'x-service-event': 'job.done', 'x-service-job': jobId, 'x-service-delivery': deliveryId, 'content-type': 'application/json' });
    expect(d.body).toMatchObject({ event: 'job.done', job: { id: jobId } });
    expect(verifySignature({ header: d.headers['x-service-signature'], rawBody: d.raw_body, secrets: [secret] })).toMatchObject({ ok: true });
    expect(verifySignature({ header: d.headers['x-service-signature'], rawBody: JSON.stringify(d.body, null, 1), secrets: [secret] }).ok).toBe(false);

    // The inbox answers before the sender records the result.
    let view = (await t.podtext.services.webhooks.webhookDelivery(jobId))!;
    for (let i = 0; i < 100 && view.state === 'pending'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      view = (await t.podtext.services.webhooks.webhookDelivery(jobId))!;
    }
    expect(view.state).toBe('delivered');
    expect(view.attempts).toHaveLength(1);
    expect(view.attempts[0]!.status).toBe(200);
  });

  it('only the inbox path of the site is exempt: other paths of it are refused at delivery', async () => {
    const a = await t.account();
    const { webhooks, db } = t.podtext.services;
    const plain = await finishJob(t.podtext.services, a.accountId, `${site}/api/v1/me`);
    const tls = await finishJob(t.podtext.services, a.accountId, `${site.replace('http:', 'https:')}/api/v1/me`);
    await webhooks.drain();
    expect((await webhooks.webhookDelivery(plain.jobId))!.attempts[0]!.error).toMatch(/^bad_scheme:/);
    expect((await webhooks.webhookDelivery(tls.jobId))!.attempts[0]!.error).toMatch(/^blocked_address:/);
    expect(await db.webhookAttempt.count({ where: { deliveryId: { in: [plain.deliveryId, tls.deliveryId] } } })).toBe(2);
  });
});
