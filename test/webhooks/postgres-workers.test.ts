import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasPostgres } from '../support/databases.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

// Races only mean something with real concurrent connections: PostgreSQL.
describe.skipIf(!hasPostgres())('two delivery workers on one PostgreSQL', () => {
  let a: TestPodtext;
  let b: TestPodtext;
  let rx: Receiver;
  beforeAll(async () => {
    const tls = await makeCertificates();
    rx = await startReceiver(tls);
    const options = { env: { OUTBOUND_ALLOW: rx.endpoint, WEBHOOK_RETRY_SCHEDULE: '1' }, webhooks: { ca: tls.ca } };
    a = await startTestPodtext({ postgres: true, ...options });
    b = await startTestPodtext({ databaseUrl: a.podtext.config.databaseUrl!, ...options });
  });
  afterAll(async () => {
    await b.close();
    await a.close();
    await rx.close();
  });

  it('200 deliveries, each failing once: every attempt is sent exactly once', async () => {
    const seen = new Map<string, number>();
    rx.behave((_n, req, res) => {
      const id = String(req.headers['x-service-delivery']);
      const n = (seen.get(id) ?? 0) + 1;
      seen.set(id, n);
      res.writeHead(n === 1 ? 500 : 200).end();
    });
    const accounts = await Promise.all(Array.from({ length: 5 }, () => a.account()));
    const jobs = [];
    for (let i = 0; i < 200; i++) jobs.push(await finishJob(a.podtext.services, accounts[i % 5]!.accountId, rx.url('/hook')));

    const sentBy = { a: 0, b: 0 };
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      const [x, y] = await Promise.all([a.podtext.services.webhooks.drain(), b.podtext.services.webhooks.drain()]);
      sentBy.a += x;
      sentBy.b += y;
      const left = await a.podtext.services.db.webhookDelivery.count({ where: { status: { not: 'delivered' } } });
      if (left === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }

    expect(sentBy.a + sentBy.b).toBe(400);
    expect(sentBy.a).toBeGreaterThan(0);
    expect(sentBy.b).toBeGreaterThan(0);
    expect(rx.received).toHaveLength(400);
    for (const job of jobs) expect(seen.get(job.deliveryId)).toBe(2);
    const attempts = await a.podtext.services.db.webhookAttempt.groupBy({ by: ['deliveryId'], _count: { _all: true } });
    expect(attempts).toHaveLength(200);
    expect(attempts.every((g) => g._count._all === 2)).toBe(true);
  }, 60_000);
});
