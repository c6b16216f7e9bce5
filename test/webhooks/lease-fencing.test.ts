import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

const clock = fakeClock('2026-03-10T12:00:00Z');
let t: TestPodtext;
let rx: Receiver;
beforeAll(async () => {
  const tls = await makeCertificates();
  rx = await startReceiver(tls);
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: rx.endpoint }, webhooks: { ca: tls.ca, timeoutMs: 5000 } });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

describe('leases', () => {
  it('a worker past its lease: another takes the delivery over and the late result is dropped', async () => {
    const acc = await t.account();
    let releaseFirst: () => void = () => undefined;
    rx.behave((n, _req, res) => {
      if (n === 0) releaseFirst = () => res.writeHead(500).end();
      else res.writeHead(200).end();
    });
    const { jobId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    const { webhooks } = t.podtext.services;

    const late = webhooks.sendNext();
    await rx.waitFor(1);
    // The first attempt hangs; its lease (time limit + 90 s) runs out.
    expect(await webhooks.sendNext()).toBe(false);
    clock.advance(96_000);
    expect(await webhooks.sendNext()).toBe(true);
    releaseFirst();
    expect(await late).toBe(true);

    const view = (await webhooks.webhookDelivery(jobId))!;
    expect(view.state).toBe('delivered');
    expect(view.attempts).toHaveLength(1);
    expect(view.attempts[0]!.status).toBe(200);
    expect(rx.received).toHaveLength(2);
  });

  it('stopping mid-attempt hands the delivery back; it is sent again at once, not counted', async () => {
    const acc = await t.account();
    rx.received.length = 0;
    rx.behave((n, _req, res) => {
      if (n > 0) res.writeHead(200).end();
    });
    const { jobId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    const { webhooks } = t.podtext.services;
    const stop = new AbortController();
    const cut = webhooks.sendNext(stop.signal);
    await rx.waitFor(1);
    stop.abort();
    expect(await cut).toBe(false);
    expect((await webhooks.webhookDelivery(jobId))!).toMatchObject({ state: 'pending', attempts: [] });
    expect(await webhooks.drain()).toBe(1);
    expect((await webhooks.webhookDelivery(jobId))!.attempts).toHaveLength(1);
    expect(rx.received).toHaveLength(2);
    expect(new Set(rx.received.map((r) => r.headers['x-service-delivery'])).size).toBe(1);
  });

  it('a delivery whose claims keep ending without a result (crash after crash) is given up', async () => {
    const acc = await t.account();
    const before = rx.received.length;
    const { jobId, deliveryId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    await t.podtext.services.db.webhookDelivery.update({ where: { id: deliveryId }, data: { claim: 20 } });
    expect(await t.podtext.services.webhooks.drain()).toBe(1);
    const view = (await t.podtext.services.webhooks.webhookDelivery(jobId))!;
    expect(view.state).toBe('failed');
    expect(view.attempts[0]!.error).toBe('stopped: 20 claims ended without a result');
    expect(rx.received.length).toBe(before);
  });
});
