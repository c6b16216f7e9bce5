import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface OutgoingMail {
  /** The outbox row's id: every attempt at one mail carries the same Message-ID, so a receiver can drop a repeat. */
  id?: string;
  to: string;
  subject: string;
  text: string;
  html?: string | null;
}

/** Sends one mail now; durable queueing lives in the mail outbox rows. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** How long SMTP may take, in ms: each well under the outbox's 120 s lease, so no second sender takes a mail still being sent. */
export interface SmtpTimeouts {
  connect: number;
  greeting: number;
  /** Silence on an open connection. */
  socket: number;
  /** One whole send, however the server trickles. */
  total: number;
}

export const SMTP_TIMEOUTS: SmtpTimeouts = { connect: 10_000, greeting: 10_000, socket: 30_000, total: 90_000 };

/** An SMTP refusal no retry mends (5xx: no such mailbox, relaying denied…). */
export class PermanentMailError extends Error {}

/**
 * A 5xx about this mail (its recipient at RCPT TO, its content at DATA) is
 * final. A 5xx at the greeting, the login or MAIL FROM (a wrong password,
 * "authentication required", our sender refused) is the server's setup or
 * ours: every mail would meet it, and each is kept for when it is mended.
 */
function refusesThisMail(err: unknown): boolean {
  const { responseCode, command } = err as { responseCode?: unknown; command?: unknown };
  return typeof responseCode === 'number' && responseCode >= 500 && responseCode < 600 && typeof command === 'string' && /^(RCPT|DATA)\b/i.test(command);
}

/**
 * Every Podtext mail is sent by a machine: RFC 3834 asks vacation replies and
 * other auto-responders not to answer it, so they do not bounce off MAIL_FROM.
 */
const AUTOMATED = { 'Auto-Submitted': 'auto-generated' };

function messageId(id: string | undefined, from: string): string | undefined {
  if (!id) return undefined;
  const domain = /@([^>\s]+)>?\s*$/.exec(from)?.[1] ?? 'podtext.invalid';
  return `<${id}@${domain}>`;
}

/**
 * SMTP when `smtpUrl` is set; otherwise each mail becomes one RFC 5322 `.eml`
 * file in `outboxDir`, so a local user can still read their links.
 */
export function createMailTransport(options: { smtpUrl?: string; from: string; outboxDir: string; log?: Logger; timeouts?: SmtpTimeouts }): MailTransport {
  if (options.smtpUrl) {
    const t = options.timeouts ?? SMTP_TIMEOUTS;
    const transporter = nodemailer.createTransport({ url: options.smtpUrl, connectionTimeout: t.connect, greetingTimeout: t.greeting, socketTimeout: t.socket });
    return {
      async send(mail) {
        // Past the whole send's limit the connection is closed, not left to finish: a server
        // that accepts the mail later would otherwise get it twice (this attempt and the retry).
        const signal = AbortSignal.timeout(t.total);
        try {
          await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined, messageId: messageId(mail.id, options.from), headers: AUTOMATED, signal } as Parameters<typeof transporter.sendMail>[0]);
        } catch (err) {
          if (signal.aborted) throw new Error(`the SMTP server took over ${t.total} ms`);
          if (refusesThisMail(err)) throw new PermanentMailError((err as Error).message);
          throw err;
        }
      },
      close: () => transporter.close(),
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined, messageId: messageId(mail.id, options.from), headers: AUTOMATED });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(options.outboxDir, name);
      // Its body may hold a key or a registration link: readable by Podtext's user only, like secret.key.
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      // Without SMTP this log line is how a local user finds their link (without the sentence's closing stop).
      const link = /https?:\/\/\S+/.exec(mail.text)?.[0]?.replace(/[.,;:!?)]+$/, '');
      options.log?.info({ to: mail.to, file, link }, `mail written to ${file}`);
    },
    close: () => transporter.close(),
  };
}
