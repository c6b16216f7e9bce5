import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from '../logger.js';

export interface OutgoingMail {
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

/**
 * SMTP when `smtpUrl` is set; otherwise each mail becomes one RFC 5322 `.eml`
 * file in `outboxDir`, so a local user can still read their links.
 */
export function createMailTransport(options: { smtpUrl?: string; from: string; outboxDir: string; log?: Logger }): MailTransport {
  if (options.smtpUrl) {
    const transporter = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(mail) {
        await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined });
      },
      close: () => transporter.close(),
    };
  }
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transporter.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html ?? undefined });
      await mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.eml`;
      const file = path.join(options.outboxDir, name);
      await writeFile(file, info.message as Buffer);
      // Without SMTP this log line is how a local user finds their link.
      const link = /https?:\/\/\S+/.exec(mail.text)?.[0];
      options.log?.info({ to: mail.to, file, link }, `mail written to ${file}`);
    },
    close: () => transporter.close(),
  };
}
