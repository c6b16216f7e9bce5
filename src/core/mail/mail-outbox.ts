import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import { type MailTransport, type OutgoingMail, PermanentMailError } from '../../infra/mail/mail-transport.js';
import type { Logger } from '../../infra/logger.js';
import { loopFailures } from '../../infra/db/loop-failures.js';
import type { SecretBox } from '../../infra/secret-box.js';
import type { Tx } from '../transaction.js';

/** Lease on a claimed mail, in seconds. Default: 120. */
const LEASE_SECONDS = 120;
/**
 * Attempts before a mail is given up: about a day, as mail servers retry,
 * so a server refusing for a while (a wrong password being mended) loses nothing.
 */
const MAX_ATTEMPTS = 24;
/** Longest wait between attempts, in seconds. */
const MAX_BACKOFF_SECONDS = 3600;

/** A mail to queue. */
export interface QueuedMail extends OutgoingMail {
  /**
   * The body holds a place for the account's key, put in by `fill` at sending.
   * Default: false, and then nothing in the body is replaced.
   */
  fillsKey?: boolean;
}

/** A body sealed by `enqueue`; rows queued before bodies were sealed hold plain text. */
const SEALED = /^v1\.[\w-]+\.[\w-]+\.[\w-]*$/;

/**
 * Mails are rows written in the same transaction as the change they announce,
 * then sent by a worker; a crash between the two loses nothing. Bodies carry
 * API keys and registration links: they are sealed at rest, like keys, and
 * emptied once the mail is sent or given up, so no dump or backup holds them.
 */
export function createMailOutbox(deps: {
  db: PrismaClient;
  transport: MailTransport;
  log: Logger;
  box: SecretBox;
  /** Puts in, at sending, what the body of a mail queued with `fillsKey` holds a place for (an account's key in force). */
  fill?(to: string, text: string): Promise<string>;
}) {
  const { db, transport, log, box } = deps;
  const fill = deps.fill ?? (async (_to: string, text: string) => text);
  const open = (body: string) => {
    if (!SEALED.test(body)) return body;
    try {
      return box.open(body);
    } catch {
      throw new PermanentMailError('its body was sealed under another SECRET_KEY');
    }
  };
  let wake: (() => void) | null = null;

  type Claimed = { id: string; to_address: string; subject: string; text: string; html: string | null; fills_key: boolean; attempt: number };

  async function claim(): Promise<Claimed | undefined> {
    const rows = await db.$queryRaw<Claimed[]>`
      UPDATE mails SET status = 'sending', attempt = attempt + 1, lease_until = now() + make_interval(secs => ${LEASE_SECONDS})
      WHERE id = (
        SELECT id FROM mails
        WHERE (status = 'pending' AND next_attempt_at <= now()) OR (status = 'sending' AND lease_until < now())
        ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address, subject, text, html, fills_key, attempt`;
    return rows[0];
  }

  /** Sends one claimed mail; the attempt number fences a writer whose lease ran out. */
  async function deliver(m: Claimed): Promise<boolean> {
    try {
      // Only a mail made to carry the key is filled: others hold text chosen by someone else (a title).
      const filled = (body: string) => (m.fills_key ? fill(m.to_address, body) : body);
      const text = await filled(open(m.text));
      const html = m.html === null ? null : await filled(open(m.html));
      await transport.send({ id: m.id, to: m.to_address, subject: m.subject, text, html });
      await db.$executeRaw`UPDATE mails SET status = 'sent', sent_at = now(), lease_until = NULL, text = '', html = NULL WHERE id = ${m.id}::uuid AND attempt = ${m.attempt}`;
      return true;
    } catch (err) {
      const giveUp = m.attempt >= MAX_ATTEMPTS || err instanceof PermanentMailError;
      log.warn({ mailId: m.id, attempt: m.attempt, err: (err as Error).message }, 'mail not sent');
      await db.$executeRaw`
        UPDATE mails SET status = ${giveUp ? 'failed' : 'pending'}, last_error = ${(err as Error).message},
          lease_until = NULL, next_attempt_at = now() + make_interval(secs => ${Math.min(30 * 2 ** m.attempt, MAX_BACKOFF_SECONDS)}),
          text = CASE WHEN ${giveUp} THEN '' ELSE text END, html = CASE WHEN ${giveUp} THEN NULL ELSE html END
        WHERE id = ${m.id}::uuid AND attempt = ${m.attempt}`;
      return false;
    }
  }

  async function drain(): Promise<number> {
    let sent = 0;
    for (;;) {
      const m = await claim();
      if (!m) return sent;
      if (await deliver(m)) sent++;
    }
  }

  return {
    /** Queues a mail inside the caller's transaction. */
    async enqueue(tx: Tx, mail: QueuedMail): Promise<void> {
      await tx.mail.create({
        data: { id: randomUUID(), to: mail.to, subject: mail.subject, text: box.seal(mail.text), html: mail.html ? box.seal(mail.html) : null, fillsKey: mail.fillsKey ?? false },
      });
    },

    /** Tells an idle sender there is work (call after the transaction commits). */
    notify(): void {
      wake?.();
    },

    /** Sends due mails until none is left. Returns how many were sent. */
    drain,

    /** Runs `drain` whenever notified, and every `everyMs` for retries. */
    run(signal: AbortSignal, everyMs = 5000): Promise<void> {
      return new Promise((resolve) => {
        const failed = loopFailures(log, 'mail outbox failed');
        let busy: Promise<unknown> | null = null;
        let again = false;
        const tick = () => {
          if (signal.aborted) return;
          if (busy) {
            again = true;
            return;
          }
          busy = drain()
            .catch(failed)
            .finally(() => {
              busy = null;
              if (again && !signal.aborted) {
                again = false;
                tick();
              }
            });
        };
        wake = tick;
        const timer = setInterval(tick, everyMs);
        tick();
        signal.addEventListener('abort', () => {
          clearInterval(timer);
          wake = null;
          // Finish the mail in flight before the database closes under it.
          void (busy ?? Promise.resolve()).then(() => resolve());
        });
      });
    },
  };
}

export type MailOutbox = ReturnType<typeof createMailOutbox>;
