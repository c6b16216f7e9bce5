import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface Inbox {
  url: string;
  mails: ParsedMail[];
  /** Resolves with the next mail to `to` (already received or arriving within `timeoutMs`). */
  next(to: string, timeoutMs?: number): Promise<ParsedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback that keeps every mail it receives. */
export async function startSmtpInbox(): Promise<Inbox> {
  const mails: ParsedMail[] = [];
  const taken = new Set<ParsedMail>();
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, done) {
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          for (const w of waiters.splice(0)) w();
          done();
        })
        .catch(done);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const find = (to: string) => mails.find((m) => !taken.has(m) && JSON.stringify(m.to).includes(to));
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async next(to, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const hit = find(to);
        if (hit) {
          taken.add(hit);
          return hit;
        }
        if (Date.now() > deadline) throw new Error(`No mail to ${to} within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
