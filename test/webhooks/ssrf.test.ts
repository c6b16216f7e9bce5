import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DomainError } from '../../src/core/errors.js';
import { systemResolver } from '../../src/infra/outbound/guarded-lookup.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { finishJob } from './support/jobs.js';
import { type Receiver, makeCertificates, startReceiver } from './support/receiver.js';

// Every host below would reach the receiver (or another local service) if it were not refused.
const hosts = [
  '127.0.0.1', '127.1', '0', '0.0.0.0', 'localhost', '2130706433', '0x7f000001', '017700000001', '0177.0.0.1',
  '012.0.0.1', '10.0.0.1', '172.16.0.1', '172.31.255.254', '192.168.0.1', '100.64.0.1', '198.18.0.1', '240.0.0.1',
  '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', '[fe80::1]', '[fc00::1]',
];

let t: TestPodtext;
let rx: Receiver;
let rebindCalls = 0;

beforeAll(async () => {
  const tls = await makeCertificates();
  rx = await startReceiver(tls);
  // No allow list: the receiver's port is as private as any other.
  t = await startTestPodtext({
    webhooks: {
      ca: tls.ca,
      timeoutMs: 2000,
      // A name whose DNS answer is public when the URL is checked and 127.0.0.1 when the delivery connects.
      resolve: async (host) => (host === 'rebind.example.com' ? (++rebindCalls === 1 ? ['93.184.216.34'] : ['127.0.0.1']) : systemResolver(host)),
    },
  });
});
afterAll(async () => {
  await t.close();
  await rx.close();
});

async function refusal(url: string): Promise<string> {
  try {
    await t.podtext.services.webhooks.assertWebhookUrl(url);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe('invalid_request');
    return (err as DomainError).message;
  }
  throw new Error(`${url} was accepted`);
}

describe('at request time (assertWebhookUrl): 400 naming webhook_url', () => {
  it.each(hosts)('refuses https://%s', async (host) => {
    expect(await refusal(`https://${host}:${rx.port}/hook`)).toMatch(/^webhook_url: must point at a public address/);
  });

  it.each(['http://example.com/hook', 'file:///etc/passwd', 'gopher://127.0.0.1:70/', 'data:text/plain,hi', 'ftp://example.com/x'])('refuses %s: https only', async (url) => {
    expect(await refusal(url)).toBe('webhook_url: must be an https:// URL');
  });

  it('refuses what is not a URL, or is too long', async () => {
    expect(await refusal('example.com/hook')).toBe('webhook_url: not an absolute URL');
    expect(await refusal(`https://example.com/${'a'.repeat(2100)}`)).toMatch(/^webhook_url: longer than 2048/);
  });

  it('accepts a test inbox of this Podtext even on plain http, and nothing else of its site', async () => {
    const acc = await t.account();
    const { id } = (await (await t.api('POST', '/webhooks/inbox', { key: acc.key })).json()) as { id: string };
    await expect(t.podtext.services.webhooks.assertWebhookUrl(`http://podtext.test/hooks/inbox/${id}`)).resolves.toBe(`http://podtext.test/hooks/inbox/${id}`);
    for (const url of [`http://podtext.test/hooks/inbox/${id}?x=1`, 'http://podtext.test/hooks/inbox/nope', 'http://podtext.test/api/v1/me', `http://podtext.test/hooks/inbox/../../api/v1/me`]) {
      expect(await refusal(url)).toBe('webhook_url: must be an https:// URL');
    }
  });
});

describe('again at delivery time, against the address connected to', () => {
  async function deliver(url: string) {
    const acc = await t.account();
    const { jobId } = await finishJob(t.podtext.services, acc.accountId, url);
    await t.podtext.services.webhooks.drain();
    return (await t.podtext.services.webhooks.webhookDelivery(jobId))!;
  }

  it.each(hosts)('refuses https://%s before any byte is sent', async (host) => {
    const before = rx.connections();
    const view = await deliver(`https://${host}:${rx.port}/hook`);
    expect(view.attempts[0]!.error).toMatch(/^blocked_address:/);
    expect(view.state).toBe('pending');
    expect(rx.connections()).toBe(before);
  });

  it('refuses a name that resolves to 127.0.0.1 only when the delivery connects', async () => {
    const url = `https://rebind.example.com:${rx.port}/hook`;
    await expect(t.podtext.services.webhooks.assertWebhookUrl(url)).resolves.toBe(url);
    const before = rx.connections();
    const view = await deliver(url);
    // Refused, naming the host but not what it resolves to: no one learns the server's internal DNS from an error.
    expect(view.attempts[0]!.error).toMatch(/^blocked_address: rebind\.example\.com does not resolve to a public address/);
    expect(view.attempts[0]!.error).not.toContain('127.0.0.1');
    expect(rebindCalls).toBe(2);
    expect(rx.connections()).toBe(before);
  });

  it.each(['http://example.com/hook', `http://127.0.0.1:${5432}/`, 'file:///etc/passwd', 'gopher://127.0.0.1:70/'])('refuses %s and stops at once (no retry can help)', async (url) => {
    const view = await deliver(url);
    expect(view.state).toBe('failed');
    expect(view.attempts).toHaveLength(1);
    expect(view.attempts[0]!.error).toMatch(/^bad_scheme:/);
  });
});
