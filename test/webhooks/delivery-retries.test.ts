import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookDeliveryWire } from '../../src/core/webhooks/delivery-log.js';
import { verifySignature } from '../../src/webhook-signature.js';
import { fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

const MIN = 60_000;
const clock = fakeClock('2026-03-10T12:00:00Z');
let t: TestPodtext;
let rx: Receiver;

beforeAll(async () => {
  const tls = await makeCertificates();
  rx = await startReceiver(tls);
  t = await startTestPodtext({ clock, env: { OUTBOUND_ALLOW: rx.endpoint }, webhooks: { ca: tls.ca, timeoutMs: 2000 } });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

const webhooks = () => t.podtext.services.webhooks;
const forDelivery = (id: string) => rx.received.filter((r) => r.headers['x-service-delivery'] === id);
async function secretOf(key: string): Promise<string> {
  return ((await (await t.api('GET', '/webhooks/secret', { key })).json()) as { secret: string }).secret;
}
function tOf(header: string): number {
  return Number(/t=(\d+)/.exec(header)![1]);
}

/** Sets the clock to `start + minutes` and sends what is due: just before, nothing; at, one attempt. */
async function attemptAt(start: number, minutes: number): Promise<void> {
  clock.set(new Date(start + minutes * MIN - 1000));
  expect(await webhooks().drain()).toBe(0);
  clock.set(new Date(start + minutes * MIN));
  expect(await webhooks().drain()).toBe(1);
}

describe('retries on the schedule (fake clock)', () => {
  it('receiver down for 3 attempts: delivered on the 4th at +21 min, signed for that attempt, same delivery id', async () => {
    const acc = await t.account();
    const secret = await secretOf(acc.key);
    rx.behave((n, _req, res) => res.writeHead(n < 3 ? 503 : 200).end());
    rx.received.length = 0;
    const start = clock.now().getTime();
    const { jobId, deliveryId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));

    expect(await webhooks().drain()).toBe(1);
    for (const m of [1, 6, 21]) await attemptAt(start, m);

    const got = forDelivery(deliveryId);
    expect(got).toHaveLength(4);
    expect(got.map((r) => (tOf(r.headers['x-service-signature']!) * 1000 - start) / MIN)).toEqual([0, 1, 6, 21]);
    const last = got[3]!;
    expect(last.headers['x-service-event']).toBe('job.done');
    expect(last.headers['x-service-job']).toBe(jobId);
    const verdict = verifySignature({ header: last.headers['x-service-signature'], rawBody: last.rawBody, secrets: [secret], now: new Date(start + 21 * MIN) });
    expect(verdict).toEqual({ ok: true, t: (start + 21 * MIN) / 1000 });
    const body = JSON.parse(last.rawBody) as { event: string; job: { id: string; status: string; episodes: unknown[] }; sent_at: string };
    expect(body).toMatchObject({ event: 'job.done', job: { id: jobId, status: 'done' }, sent_at: new Date(start + 21 * MIN).toISOString() });
    expect(Object.keys(body)).toEqual(['event', 'job', 'sent_at']);
    expect(body.job.episodes).toHaveLength(2);

    const view = (await webhooks().webhookDelivery(jobId))!;
    expect(view.state).toBe('delivered');
    expect(view.nextAttemptAt).toBeNull();
    expect(view.attempts.map((a) => [a.status, a.error === null])).toEqual([[503, false], [503, false], [503, false], [200, true]]);
    const wire = webhookDeliveryWire(view);
    expect(wire.attempts[3]).toMatchObject({ at: new Date(start + 21 * MIN).toISOString(), status: 200, error: null });
    expect(typeof wire.attempts[3]!.duration_ms).toBe('number');

    clock.advance(24 * 60 * MIN);
    expect(await webhooks().drain()).toBe(0);
    expect(forDelivery(deliveryId)).toHaveLength(4);
  });

  it('receiver always down: attempts at +0, +1, +6, +21, +81, +321 min, then none; failed', async () => {
    const acc = await t.account();
    rx.behave((_n, _req, res) => res.writeHead(500).end('down'));
    const start = clock.now().getTime();
    const { jobId, deliveryId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    expect(await webhooks().drain()).toBe(1);
    let view = (await webhooks().webhookDelivery(jobId))!;
    expect(view).toMatchObject({ state: 'pending', nextAttemptAt: new Date(start + MIN) });
    for (const m of [1, 6, 21, 81, 321]) await attemptAt(start, m);

    const offsets = forDelivery(deliveryId).map((r) => (tOf(r.headers['x-service-signature']!) * 1000 - start) / MIN);
    expect(offsets).toEqual([0, 1, 6, 21, 81, 321]);
    view = (await webhooks().webhookDelivery(jobId))!;
    expect(view.state).toBe('failed');
    expect(view.nextAttemptAt).toBeNull();
    expect(view.attempts.map((a) => (a.at.getTime() - start) / MIN)).toEqual([0, 1, 6, 21, 81, 321]);
    expect(view.attempts.every((a) => a.status === 500 && a.error === 'status 500')).toBe(true);

    clock.advance(30 * 24 * 60 * MIN);
    expect(await webhooks().drain()).toBe(0);
    expect(forDelivery(deliveryId)).toHaveLength(6);
  });

  it('enqueuing the same job twice (a retried transaction) keeps one delivery', async () => {
    const acc = await t.account();
    rx.behave((_n, _req, res) => res.writeHead(204).end());
    const first = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    const again = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'), first.jobId);
    expect(again.deliveryId).toBe(first.deliveryId);
    expect(await webhooks().drain()).toBe(1);
    expect(forDelivery(first.deliveryId)).toHaveLength(1);
  });

  it('no webhook_url: nothing queued, and the job has no webhook state', async () => {
    const acc = await t.account();
    const { inTransaction } = await import('../../src/core/transaction.js');
    const { jobPayload } = await import('./support/jobs.js');
    const payload = jobPayload();
    const id = await inTransaction(t.podtext.services.db, (tx) => webhooks().enqueueJobDone(tx, { jobId: payload.id, accountId: acc.accountId, webhookUrl: null, payload }));
    expect(id).toBeNull();
    expect(await webhooks().webhookDelivery(payload.id)).toBeNull();
    expect(await webhooks().webhookDelivery('not-a-uuid')).toBeNull();
  });
});

describe('secret rotation (fake clock)', () => {
  it('for 24 h deliveries carry both signatures and either secret verifies; after 24 h only the new one', async () => {
    const acc = await t.account();
    rx.behave((_n, _req, res) => res.writeHead(200).end());
    const oldSecret = await secretOf(acc.key);
    const rotated = (await (await t.api('POST', '/webhooks/secret', { key: acc.key })).json()) as { secret: string; rotated: boolean };
    expect(rotated.rotated).toBe(true);
    expect(rotated.secret).not.toBe(oldSecret);
    expect(await secretOf(acc.key)).toBe(rotated.secret);
    const rotatedAt = clock.now().getTime();

    const during = [];
    for (const hours of [0, 23.9]) {
      clock.set(new Date(rotatedAt + hours * 60 * MIN));
      const { deliveryId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
      expect(await webhooks().drain()).toBe(1);
      during.push(forDelivery(deliveryId)[0]!);
    }
    for (const r of during) {
      const header = r.headers['x-service-signature']!;
      expect(header.match(/v1=/g)).toHaveLength(2);
      const now = new Date(tOf(header) * 1000);
      expect(verifySignature({ header, rawBody: r.rawBody, secrets: [oldSecret], now }).ok).toBe(true);
      expect(verifySignature({ header, rawBody: r.rawBody, secrets: [rotated.secret], now }).ok).toBe(true);
      expect(verifySignature({ header, rawBody: r.rawBody, secrets: ['whsec_someone-else'], now }).ok).toBe(false);
    }

    clock.set(new Date(rotatedAt + 24 * 60 * MIN));
    const { deliveryId } = await finishJob(t.podtext.services, acc.accountId, rx.url('/hook'));
    expect(await webhooks().drain()).toBe(1);
    const after = forDelivery(deliveryId)[0]!;
    const header = after.headers['x-service-signature']!;
    expect(header.match(/v1=/g)).toHaveLength(1);
    const now = new Date(tOf(header) * 1000);
    expect(verifySignature({ header, rawBody: after.rawBody, secrets: [rotated.secret], now }).ok).toBe(true);
    expect(verifySignature({ header, rawBody: after.rawBody, secrets: [oldSecret], now }).ok).toBe(false);
  });
});
