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
    // As when a sender's lease ran out after the server had taken the mail.
    await t.podtext.services.db.mail.update({ where: { id: row!.id }, data: { status: 'pending' } });
    await t.podtext.services.outbox.drain();
    expect((await smtp.next('ivy@example.com')).messageId).toBe(first.messageId);
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

  it('a permanent refusal (550) gives the mail up at once instead of retrying it six times', async () => {
    await t.api('POST', '/register/start', { body: { email: 'nobody@example.com' } });
    await t.podtext.services.outbox.drain();
    const [row] = await rows(t, 'nobody@example.com');
    expect(row).toMatchObject({ status: 'failed', attempt: 1 });
    expect(row!.lastError).toContain('no such mailbox');
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
