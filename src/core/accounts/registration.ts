import { randomBytes, randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { Clock } from '../clock.js';
import { DomainError, invalid } from '../errors.js';
import * as ledger from '../ledger.js';
import type { Links } from '../links.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import { SIGNUP_CREDITS } from '../pricing.js';
import { inTransaction } from '../transaction.js';
import { lookupHash } from './api-key.js';
import type { KeyService } from './key-service.js';
import { PermanentMailError } from '../../infra/mail/mail-transport.js';
import { CURRENT_KEY, confirmMail, existingKeyMail } from './registration-mails.js';

/** Registration attempts allowed per address in `ATTEMPT_WINDOW_MINUTES`. Default: 5. */
export const MAX_ATTEMPTS_PER_WINDOW = 5;
/** Default: 60. */
export const ATTEMPT_WINDOW_MINUTES = 60;
/** Lifetime of an emailed token, in hours. Default: 24. */
export const TOKEN_LIFETIME_HOURS = 24;

/**
 * One plain address: no display name, comment, list or quoting a mail header
 * would read as more than it, and an ASCII mailbox name (SMTP without
 * SMTPUTF8 carries no other); the domain may be internationalised.
 */
const EMAIL = /^[!#-'*+\-./0-9=?A-Z^-~]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]+$/;

/** Lower-cased, trimmed address without a root-domain dot (`a@example.com.` is `a@example.com`), or `invalid_request` naming `email`. */
export function normaliseEmail(raw: string): string {
  const email = raw.trim().toLowerCase().replace(/\.+$/, '');
  if (email.length > 254 || !EMAIL.test(email)) throw invalid('email', 'not a valid email address');
  return email;
}

export interface RegistrationDeps {
  db: PrismaClient;
  keys: KeyService;
  outbox: MailOutbox;
  links: Links;
  clock: Clock;
  bus: EventBus;
}

export const START_MESSAGE =
  'Check your inbox: we sent a link to finish registration (or your existing key, if this address already has an account).';

export function createRegistration({ db, keys, outbox, links, clock }: RegistrationDeps) {
  return {
    /**
     * Emails a one-time link, or re-sends the existing key to a known address.
     * The answer and the work done are the same either way, so it reveals
     * nothing about which addresses have accounts.
     */
    async start(rawEmail: string): Promise<{ ok: true; message: string }> {
      const email = normaliseEmail(rawEmail);
      const now = clock.now();
      const since = new Date(now.getTime() - ATTEMPT_WINDOW_MINUTES * 60_000);
      await inTransaction(db, async (tx) => {
        // Serialise attempts for one address so the threshold is exact.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${email}))`;
        const recent = await tx.registrationAttempt.findMany({ where: { email, createdAt: { gte: since } }, select: { createdAt: true }, orderBy: { createdAt: 'asc' }, take: MAX_ATTEMPTS_PER_WINDOW });
        if (recent.length >= MAX_ATTEMPTS_PER_WINDOW) {
          // The next attempt is allowed once the oldest of these leaves the window.
          const retryAfter = Math.max(1, Math.ceil((recent[0]!.createdAt.getTime() + ATTEMPT_WINDOW_MINUTES * 60_000 - now.getTime()) / 1000));
          throw new DomainError('too_many_attempts', `Too many registration attempts for this address; try again within ${ATTEMPT_WINDOW_MINUTES} minutes.`, { retryAfter });
        }
        await tx.registrationAttempt.create({ data: { email, createdAt: now } });
        const account = await tx.account.findUnique({ where: { email }, select: { id: true } });
        const key = account ? await keys.currentKey(tx, account.id) : null;
        if (account && key) {
          await outbox.enqueue(tx, existingKeyMail(email, links));
        } else {
          const token = randomBytes(32).toString('base64url');
          await tx.registrationToken.create({
            data: { id: randomUUID(), email, tokenHash: lookupHash(token), expiresAt: new Date(now.getTime() + TOKEN_LIFETIME_HOURS * 3_600_000), createdAt: now },
          });
          await outbox.enqueue(tx, confirmMail(email, token, links));
        }
      });
      outbox.notify();
      return { ok: true, message: START_MESSAGE };
    },

    /**
     * Spends a token. The first confirmation for an address creates the
     * account with its signup credits; a later one answers with the existing key.
     */
    async confirm(token: string): Promise<{ key: string; credits: number; created: boolean }> {
      if (!token || token.length > 200) throw new DomainError('invalid_token', 'This link is invalid or has already been used.');
      const now = clock.now();
      return inTransaction(db, async (tx) => {
        const spent = await tx.$queryRaw<{ email: string }[]>`
          UPDATE registration_tokens SET used_at = ${now}
          WHERE token_hash = ${lookupHash(token)} AND used_at IS NULL AND expires_at > ${now}
          RETURNING email`;
        const email = spent[0]?.email;
        if (!email) throw new DomainError('invalid_token', 'This link is invalid, expired or has already been used.');
        const existing = await tx.account.findUnique({ where: { email }, select: { id: true, credits: true } });
        if (existing) {
          const key = (await keys.currentKey(tx, existing.id)) ?? (await keys.issue(tx, existing.id));
          return { key, credits: existing.credits, created: false };
        }
        const accountId = randomUUID();
        await tx.account.create({ data: { id: accountId, email, plan: 'free', credits: 0, cycleStartedAt: now, createdAt: now } });
        const key = await keys.issue(tx, accountId);
        const { entry } = await ledger.grant(tx, accountId, SIGNUP_CREDITS, `signup:${accountId}`, 'Welcome credits');
        return { key, credits: entry.balanceAfter, created: true };
      });
    },
  };
}

export type Registration = ReturnType<typeof createRegistration>;

/**
 * `text` with the key in force for the account of `to` put in for
 * {@link CURRENT_KEY}, at the moment the mail is sent. An account that has no
 * key any more gets no mail: nothing is left to send it.
 */
export async function fillCurrentKey(db: PrismaClient, keys: KeyService, to: string, text: string): Promise<string> {
  if (!text.includes(CURRENT_KEY)) return text;
  const account = await db.account.findUnique({ where: { email: to }, select: { id: true } });
  const key = account ? await keys.currentKey(db, account.id) : null;
  if (!key) throw new PermanentMailError('the account has no key to send any more');
  return text.replaceAll(CURRENT_KEY, key);
}
