import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

let t: TestPodtext;
let rx: Receiver;
let tls: { ca: string; key: string; cert: string };

beforeAll(async () => {
  tls = await makeCertificates();
  rx = await startReceiver(tls);
  // A 1 s time limit stands in for the default 30 s.
  t = await startTestPodtext({ env: { OUTBOUND_ALLOW: `${rx.endpoint},localhost:${rx.port}` }, webhooks: { ca: tls.ca, timeoutMs: 1000 } });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

/** Enqueues one job.done to `path` on the receiver, sends what is due, returns the job's webhook state. */
async function deliverOnce(url: string) {
  const acc = await t.account();
  const { jobId, deliveryId } = await finishJob(t.podtext.services, acc.accountId, url);
  await t.podtext.services.webhooks.drain();
  const view = (await t.podtext.services.webhooks.webhookDelivery(jobId))!;
  return { view, deliveryId, attempt: view.attempts[0]! };
}

describe('what counts as delivered', () => {
  it('a 2xx is delivered; the wire state says so', async () => {
    rx.behave((_n, _req, res) => res.writeHead(202).end());
    const { view, attempt } = await deliverOnce(rx.url('/ok'));
    expect(view.state).toBe('delivered');
    expect(attempt).toMatchObject({ status: 202, error: null });
  });

  it('a 3xx is answered as it came and fails: the redirect is not followed', async () => {
    rx.behave((_n, req, res) => (req.url === '/moved' ? res.writeHead(302, { location: rx.url('/target') }).end() : res.writeHead(200).end()));
    const before = rx.received.length;
    const { view, attempt } = await deliverOnce(rx.url('/moved'));
    expect(attempt).toMatchObject({ status: 302, error: 'redirect (302) not followed' });
    expect(view.state).toBe('pending');
    expect(view.nextAttemptAt!.getTime() - attempt.at.getTime()).toBe(60_000);
    expect(rx.received.slice(before).map((r) => r.path)).toEqual(['/moved']);
  });

  it('a redirect towards 127.0.0.1:5432 is not followed either', async () => {
    rx.behave((_n, _req, res) => res.writeHead(307, { location: 'http://127.0.0.1:5432/' }).end());
    const { attempt } = await deliverOnce(rx.url('/to-db'));
    expect(attempt).toMatchObject({ status: 307, error: 'redirect (307) not followed' });
  });

  it('a receiver slower than the time limit fails with a timeout', async () => {
    rx.behave((_n, _req, res) => {
      setTimeout(() => res.writeHead(200).end(), 3000).unref();
    });
    const { view, attempt } = await deliverOnce(rx.url('/slow'));
    expect(view.state).toBe('pending');
    expect(attempt.status).toBeNull();
    expect(attempt.error).toMatch(/^timeout:/);
    expect(attempt.durationMs).toBeGreaterThanOrEqual(900);
    expect(attempt.durationMs).toBeLessThan(2500);
  });

  it('a 200 whose body never comes: delivered at its status, not timed out and sent again', async () => {
    const open: import('node:http').ServerResponse[] = [];
    rx.behave((_n, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      open.push(res);
    });
    const before = rx.received.length;
    const { view, attempt } = await deliverOnce(rx.url('/silent-body'));
    expect(view.state).toBe('delivered');
    expect(attempt).toMatchObject({ status: 200, error: null });
    expect(attempt.durationMs).toBeLessThan(900);
    expect(rx.received.length - before).toBe(1);
    for (const res of open) res.destroy();
  });

  it('a 200 whose body never ends counts as delivered, without reading it', async () => {
    let written = 0;
    rx.behave((_n, _req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'x');
      const timer = setInterval(() => {
        if (res.destroyed || !res.write(chunk)) return;
        written += chunk.length;
      }, 5);
      res.on('close', () => clearInterval(timer));
    });
    const started = Date.now();
    const { view, attempt } = await deliverOnce(rx.url('/endless'));
    expect(view.state).toBe('delivered');
    expect(attempt.status).toBe(200);
    // Well within the 1 s limit: reading stopped at the cap instead of waiting for an end.
    expect(Date.now() - started).toBeLessThan(1000);
    expect(written).toBeLessThan(1024 * 1024);
  });

  it('a 500 with a huge body fails quickly, without reading it', async () => {
    rx.behave((_n, _req, res) => res.writeHead(500).end(Buffer.alloc(5 * 1024 * 1024, 'y')));
    const { attempt } = await deliverOnce(rx.url('/huge'));
    expect(attempt).toMatchObject({ status: 500, error: 'status 500' });
    expect(attempt.durationMs).toBeLessThan(1000);
  });

  it('a refused connection fails and is retried', async () => {
    // A port that was free a moment ago, now closed: nothing listens there.
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, '127.0.0.1', r));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const other = await startTestPodtext({ env: { OUTBOUND_ALLOW: `127.0.0.1:${port}` }, webhooks: { ca: tls.ca } });
    try {
      const acc = await other.account();
      const { jobId } = await finishJob(other.podtext.services, acc.accountId, `https://127.0.0.1:${port}/hook`);
      await other.podtext.services.webhooks.drain();
      const view = (await other.podtext.services.webhooks.webhookDelivery(jobId))!;
      expect(view.state).toBe('pending');
      expect(view.attempts[0]).toMatchObject({ status: null });
      expect(view.attempts[0]!.error).toMatch(/^network: .*ECONNREFUSED/);
    } finally {
      await other.close();
    }
  });
});

describe('https receivers', () => {
  it('a real HTTPS receiver with a private CA, reached by name: delivered when the CA is trusted', async () => {
    rx.behave((_n, _req, res) => res.writeHead(200).end());
    const { view, deliveryId } = await deliverOnce(`https://localhost:${rx.port}/tls`);
    expect(view.state).toBe('delivered');
    expect(rx.received.at(-1)!.headers['x-service-delivery']).toBe(deliveryId);
  });

  it('the same receiver, CA not trusted: the certificate is refused', async () => {
    const other = await startTestPodtext({ env: { OUTBOUND_ALLOW: rx.endpoint } });
    try {
      const before = rx.received.length;
      const acc = await other.account();
      const { jobId } = await finishJob(other.podtext.services, acc.accountId, rx.url('/untrusted'));
      await other.podtext.services.webhooks.drain();
      const view = (await other.podtext.services.webhooks.webhookDelivery(jobId))!;
      expect(view.state).toBe('pending');
      expect(view.attempts[0]!.error).toMatch(/certificate/i);
      expect(rx.received.length).toBe(before);
    } finally {
      await other.close();
    }
  });
});
