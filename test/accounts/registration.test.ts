import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeClock } from '../support/fake-clock.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';

const clock = fakeClock('2026-05-01T08:00:00Z');
let smtp: Inbox;
let t: TestPodtext;

beforeAll(async () => {
  smtp = await startSmtpInbox();
  t = await startTestPodtext({ clock, env: { SMTP_URL: smtp.url, MAIL_FROM: 'Podtext <hello@podtext.test>' } });
  t.podtext.startWorkers();
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

function tokenFrom(text: string): string {
  const m = /confirm\?token=([A-Za-z0-9_-]+)/.exec(text);
  if (!m) throw new Error(`No link in mail:\n${text}`);
  return m[1]!;
}

async function start(email: string) {
  return t.api('POST', '/register/start', { body: { email } });
}

describe('registration over real SMTP', () => {
  it('mails a one-time link whose token creates the account with 10 credits', async () => {
    const res = await start('Ada@Example.com ');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ ok: true });
    const mail = await smtp.next('ada@example.com');
    expect(mail.from?.text).toContain('hello@podtext.test');
    const token = tokenFrom(mail.text ?? '');
    expect(mail.text).toContain(`http://podtext.test/confirm?token=${token}`);

    const confirm = await t.api('POST', '/register/confirm', { body: { token } });
    expect(confirm.status).toBe(200);
    const body = (await confirm.json()) as { key: string; credits: number; created: boolean };
    expect(body).toMatchObject({ credits: 10, created: true });
    expect(body.key).toMatch(/^ptk_[A-Za-z0-9_-]{43}$/);

    const me = await t.api('GET', '/me', { key: body.key });
    expect(await me.json()).toEqual({ credits: 10, plan: 'free', email: 'ada@example.com', billing_managed: false, unlocks: [] });

    // Used token: 400, and nothing else is created.
    const again = await t.api('POST', '/register/confirm', { body: { token } });
    expect(again.status).toBe(400);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('invalid_token');
  });

  it('re-sends the existing key to a known address and creates nothing', async () => {
    await start('bob@example.com');
    const token = tokenFrom((await smtp.next('bob@example.com')).text ?? '');
    const { key } = (await (await t.api('POST', '/register/confirm', { body: { token } })).json()) as { key: string };

    const known = await start('bob@example.com');
    const unknown = await start('carol@example.com');
    expect(await known.json()).toEqual(await unknown.json());
    const resent = await smtp.next('bob@example.com');
    expect(resent.text).toContain(key);
    expect(resent.text).not.toContain('confirm?token=');
    expect(await t.podtext.services.db.account.count({ where: { email: 'bob@example.com' } })).toBe(1);
  });

  it('a second token for an address confirms into the same account (created: false)', async () => {
    await start('dan@example.com');
    await start('dan@example.com');
    const first = tokenFrom((await smtp.next('dan@example.com')).text ?? '');
    const second = tokenFrom((await smtp.next('dan@example.com')).text ?? '');
    const a = (await (await t.api('POST', '/register/confirm', { body: { token: second } })).json()) as { key: string; created: boolean };
    const b = (await (await t.api('POST', '/register/confirm', { body: { token: first } })).json()) as { key: string; created: boolean; credits: number };
    expect(a.created).toBe(true);
    expect(b).toEqual({ key: a.key, created: false, credits: 10 });
  });

  it('rotating the key voids every registration link still unspent: an old mail no longer hands out the new key', async () => {
    await start('hal@example.com');
    await start('hal@example.com');
    const first = tokenFrom((await smtp.next('hal@example.com')).text ?? '');
    const second = tokenFrom((await smtp.next('hal@example.com')).text ?? '');
    const { key } = (await (await t.api('POST', '/register/confirm', { body: { token: first } })).json()) as { key: string };
    const rotated = (await (await t.api('POST', '/key/rotate', { key })).json()) as { key: string };
    const late = await t.api('POST', '/register/confirm', { body: { token: second } });
    expect(late.status).toBe(400);
    expect(await late.text()).not.toContain(rotated.key);
    expect(((await (await t.api('GET', '/me', { key: rotated.key })).json()) as { email: string }).email).toBe('hal@example.com');
  });

  it('tokens expire after 24 hours', async () => {
    await start('erin@example.com');
    const token = tokenFrom((await smtp.next('erin@example.com')).text ?? '');
    clock.advance(24 * 3600_000 + 1000);
    const res = await t.api('POST', '/register/confirm', { body: { token } });
    expect(res.status).toBe(400);
  });

  it('unknown token: 400; invalid email: 400 naming the field', async () => {
    expect((await t.api('POST', '/register/confirm', { body: { token: 'nope' } })).status).toBe(400);
    const bad = await start('not-an-email');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^email:/);
  });

  it('429 after 5 attempts for one address within an hour, open again after', async () => {
    for (let i = 0; i < 5; i++) expect((await start('flo@example.com')).status).toBe(200);
    const sixth = await start('FLO@example.com.');
    expect(sixth.status).toBe(429);
    expect(((await sixth.json()) as { error: { code: string } }).error.code).toBe('too_many_attempts');
    // All five in the same minute: the window frees a place in an hour.
    expect(sixth.headers.get('retry-after')).toBe('3600');
    expect((await start('other@example.com')).status).toBe(200);
    clock.advance(61 * 60_000);
    expect((await start('flo@example.com')).status).toBe(200);
  });

  it('stores no usable key or token: only hashes and sealed keys', async () => {
    await start('gus@example.com');
    const token = tokenFrom((await smtp.next('gus@example.com')).text ?? '');
    const { key } = (await (await t.api('POST', '/register/confirm', { body: { token } })).json()) as { key: string };
    const dump = JSON.stringify(
      await t.podtext.db.sql.query("SELECT * FROM api_keys UNION ALL SELECT id, NULL, token_hash, email, created_at, used_at FROM registration_tokens"),
    );
    expect(dump).not.toContain(key);
    expect(dump).not.toContain(key.slice(4));
    expect(dump).not.toContain(token);
  });
});

describe('registration answers the same, in the same time, for known and unknown addresses', () => {
  it('median latency differs by under 20 ms over 200 tries', async () => {
    const account = await t.account({ email: 'known-timing@example.com' });
    void account;
    const time = async (email: string) => {
      const s = performance.now();
      const res = await start(email);
      expect(res.status).toBe(200);
      return performance.now() - s;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 100; i++) {
      // Spread over addresses so the attempt limit is not what is measured.
      clock.advance(61 * 60_000);
      known.push(await time('known-timing@example.com'));
      unknown.push(await time(`unknown-${i}@example.com`));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    expect(Math.abs(median(known) - median(unknown))).toBeLessThan(20);
  });
});
