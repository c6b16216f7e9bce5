import { type AddressInfo, type Server, type Socket, createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailTransport } from '../../src/infra/mail/mail-transport.js';
import { type Inbox, startSmtpInbox } from '../support/smtp.js';
import { type TestPodtext, startTestPodtext } from '../support/podtext.js';

/** Mails of the outbox by address: status, attempts and the last error. */
async function rows(t: TestPodtext, to: string) {
  return t.podtext.services.db.mail.findMany({ where: { to }, select: { id: true, status: true, attempt: true, lastError: true } });
}

describe('mail delivery over real SMTP', () => {
  let smtp: Inbox;
  let t: TestPodtext;
  beforeAll(async () => {
    smtp = await startSmtpInbox();
    t = await startTestPodtext({ env: { SMTP_URL: smtp.url, MAIL_FROM: 'Podtext <hello@podtext.test>' } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a mail sent again (its first sender lost before recording it) carries the same Message-ID, so the receiver can drop the repeat', async () => {
    await t.api('POST', '/register/start', { body: { email: 'ivy@example.com' } });
    await t.podtext.services.outbox.drain();
    const first = await smtp.next('ivy@example.com');
    const [row] = await rows(t, 'ivy@example.com');
    expect(first.messageId).toBe(`<${row!.id}@podtext.test>`);
    // Sent by a machine: vacation replies must not answer it (RFC 3834).
    expect(first.headers.get('auto-submitted')).toBe('auto-generated');
    // As when a sender's lease ran out after the server had taken the mail.
    await t.podtext.services.db.mail.update({ where: { id: row!.id }, data: { status: 'pending' } });
    await t.podtext.services.outbox.drain();
    expect((await smtp.next('ivy@example.com')).messageId).toBe(first.messageId);
  });

  it("a known address's key mail carries the key in force when it is sent: a rotation while it waited is not undone by mailing the retired key", async () => {
    const a = await t.account({ email: 'rota@example.com' });
    await t.api('POST', '/register/start', { body: { email: 'rota@example.com' } });
    // The mail waits (a slow server, a retry); meanwhile the key is rotated.
    const { key: rotated } = (await (await t.api('POST', '/key/rotate', { key: a.key })).json()) as { key: string };
    await t.podtext.services.outbox.drain();
    const mail = (await smtp.next('rota@example.com')).text;
    expect(mail).toContain(rotated);
    expect(mail).not.toContain(a.key);
    expect((await t.api('GET', '/me', { key: rotated })).status).toBe(200);
  });

  it('mail bodies hold no key or link in the database: sealed while queued, emptied once sent, and delivered whole', async () => {
    // An address with an account is mailed its key; a new one, its registration link.
    const a = await t.account({ email: 'kay@example.com' });
    await t.api('POST', '/register/start', { body: { email: 'kay@example.com' } });
    await t.api('POST', '/register/start', { body: { email: 'newcomer@example.com' } });
    const stored = async () => (await t.podtext.services.db.mail.findMany({ where: { to: { in: ['kay@example.com', 'newcomer@example.com'] } } })).map((m) => `${m.subject} ${m.text} ${m.html ?? ''}`).join('\n');
    const queued = await stored();
    expect(queued).not.toContain(a.key);
    expect(queued).not.toMatch(/token=|ptk_/);
    await t.podtext.services.outbox.drain();
    expect((await smtp.next('kay@example.com')).text).toContain(a.key);
    expect((await smtp.next('newcomer@example.com')).text).toMatch(/confirm\?token=/);
    const sent = await t.podtext.services.db.mail.findMany({ where: { to: { in: ['kay@example.com', 'newcomer@example.com'] } } });
    expect(sent.map((m) => [m.status, m.text, m.html])).toEqual([
      ['sent', '', null],
      ['sent', '', null],
    ]);
  });
});

describe('an SMTP server that refuses or stalls', () => {
  let refusing: SMTPServer;
  let stalled: Server;
  const held: Socket[] = [];
  let t: TestPodtext;
  beforeAll(async () => {
    refusing = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onRcptTo(address, _session, done) {
        const err = Object.assign(new Error(`5.1.1 <${address.address}>: no such mailbox`), { responseCode: 550 });
        done(err);
      },
    });
    await new Promise<void>((resolve) => refusing.listen(0, '127.0.0.1', resolve));
    // Takes the connection and never says hello.
    stalled = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (refusing.server.address() as AddressInfo).port;
    t = await startTestPodtext({ env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
  });
  afterAll(async () => {
    await t?.close();
    for (const s of held) s.destroy();
    await new Promise((r) => stalled?.close(r));
    await new Promise<void>((r) => refusing?.close(() => r()));
  });

  it('a permanent refusal (550) gives the mail up at once instead of retrying it for a day', async () => {
    await t.api('POST', '/register/start', { body: { email: 'nobody@example.com' } });
    await t.podtext.services.outbox.drain();
    const [row] = await rows(t, 'nobody@example.com');
    expect(row).toMatchObject({ status: 'failed', attempt: 1 });
    expect(row!.lastError).toContain('no such mailbox');
  });

  it("a 5xx about the server's setup (authentication required, at MAIL FROM) keeps the mail for when it is mended", async () => {
    const needsLogin = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onMailFrom(_address, _session, done) {
        done(Object.assign(new Error('5.7.0 Authentication required'), { responseCode: 530 }));
      },
    });
    await new Promise<void>((resolve) => needsLogin.listen(0, '127.0.0.1', resolve));
    const other = await startTestPodtext({ env: { SMTP_URL: `smtp://127.0.0.1:${(needsLogin.server.address() as AddressInfo).port}` } });
    try {
      await other.api('POST', '/register/start', { body: { email: 'waiting@example.com' } });
      await other.podtext.services.outbox.drain();
      const [row] = await rows(other, 'waiting@example.com');
      expect(row).toMatchObject({ status: 'pending', attempt: 1 });
      expect(row!.lastError).toContain('Authentication required');
    } finally {
      await other.close();
      await new Promise<void>((r) => needsLogin.close(() => r()));
    }
  });

  it('a server that never answers fails the send within the timeouts (well inside the 120 s lease)', async () => {
    const port = (stalled.address() as AddressInfo).port;
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${port}`,
      from: 'Podtext <hello@podtext.test>',
      outboxDir: '/nonexistent',
      timeouts: { connect: 500, greeting: 500, socket: 500, total: 2_000 },
    });
    const started = Date.now();
    await expect(transport.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow();
    expect(Date.now() - started).toBeLessThan(2_500);
    transport.close();
  });
});

describe('a send past its whole limit', () => {
  it('closes the connection, so a server that accepts the mail later does not get it twice', async () => {
    // Greets and accepts everything, then answers the end of the message a line at a time, forever.
    let closedAt = 0;
    const trickling = createServer((socket) => {
      let trickle: NodeJS.Timeout | undefined;
      socket.on('close', () => {
        closedAt = Date.now();
        clearInterval(trickle);
      });
      socket.on('error', () => undefined);
      socket.write('220 slow.example ESMTP\r\n');
      let inData = false;
      socket.on('data', (chunk) => {
        for (const line of chunk.toString().split('\r\n')) {
          if (inData) {
            if (line === '.') {
              inData = false;
              trickle = setInterval(() => socket.write('250-still thinking\r\n'), 100);
            }
            continue;
          }
          if (/^(EHLO|HELO)/i.test(line)) socket.write('250 slow.example\r\n');
          else if (/^(MAIL|RCPT)/i.test(line)) socket.write('250 ok\r\n');
          else if (/^DATA/i.test(line)) {
            inData = true;
            socket.write('354 go on\r\n');
          }
        }
      });
    });
    await new Promise<void>((resolve) => trickling.listen(0, '127.0.0.1', resolve));
    const transport = createMailTransport({
      smtpUrl: `smtp://127.0.0.1:${(trickling.address() as AddressInfo).port}`,
      from: 'Podtext <hello@podtext.test>',
      outboxDir: '/nonexistent',
      timeouts: { connect: 500, greeting: 500, socket: 500, total: 1_500 },
    });
    try {
      const started = Date.now();
      await expect(transport.send({ to: 'x@example.com', subject: 's', text: 't' })).rejects.toThrow(/took over 1500 ms/);
      await expect.poll(() => closedAt, { timeout: 1_000 }).toBeGreaterThan(0);
      expect(closedAt - started).toBeLessThan(2_500);
    } finally {
      transport.close();
      await new Promise((r) => trickling.close(r));
    }
  });
});

describe('mails written to the outbox directory (no SMTP_URL)', () => {
  it('are readable by Podtext\'s user only: they may hold a key', async () => {
    const { mkdtemp, readdir, readFile, stat } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const dir = await mkdtemp(path.join(tmpdir(), 'podtext-outbox-'));
    const transport = createMailTransport({ from: 'Podtext <hello@podtext.test>', outboxDir: dir });
    await transport.send({ to: 'kay@example.com', subject: 'Your Podtext API key', text: 'ptk_example' });
    const [file] = await readdir(dir);
    expect((await stat(path.join(dir, file!))).mode & 0o777).toBe(0o600);
    expect(await readFile(path.join(dir, file!), 'utf8')).toContain('ptk_example');
    expect(await readFile(path.join(dir, file!), 'utf8')).toContain('Auto-Submitted: auto-generated');
    transport.close();
  });
});
