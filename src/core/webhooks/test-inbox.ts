import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Actor } from '../accounts/actor.js';
import type { Clock } from '../clock.js';
import { DomainError, invalid } from '../errors.js';
import type { Links } from '../links.js';
import { inTransaction } from '../transaction.js';
import { INBOX_PATH, isUuid } from './webhook-url.js';

/** How long an inbox receives and can be read, in ms. Default: 24 hours. */
export const INBOX_LIFETIME_MS = 24 * 60 * 60 * 1000;
/** Deliveries kept per inbox; older ones are dropped. Default: 100. */
export const INBOX_MAX_DELIVERIES = 100;
/**
 * Inboxes one account keeps; making another deletes its oldest. Default: 10.
 * Each may hold 100 bodies of 256 KB (25 MB), and making one costs no credit:
 * without a bound, one key could fill the database.
 */
export const INBOX_MAX_PER_ACCOUNT = 10;
/** Largest body an inbox accepts, in bytes; bigger ones get 413. Default: 256 KB. */
export const INBOX_MAX_BODY_BYTES = 256 * 1024;

export interface InboxCreated {
  id: string;
  /** Where to send: `{site_url}/hooks/inbox/{id}`, keyless, any sender. */
  url: string;
  /** Where the owner reads what arrived: `{base_url}/webhooks/inbox/{id}`. */
  deliveriesUrl: string;
  expiresAt: Date;
}

export interface InboxDelivery {
  receivedAt: Date;
  /** Request headers as received, names lower-case. */
  headers: Record<string, string>;
  /** The body exactly as received (UTF-8). */
  rawBody: string;
}

const notFound = () => new DomainError('not_found', 'No such webhook inbox for this key, or it has expired.');

/**
 * Hosted test receivers: an account creates one, points a webhook (or any
 * HTTP client) at its URL, and reads back what arrived with headers and body.
 */
export function createTestInboxes(deps: { db: PrismaClient; clock: Clock; links: Links }) {
  const { db, clock, links } = deps;
  const inboxUrl = (id: string) => `${links.site}${INBOX_PATH}${id}`;

  return {
    inboxUrl,

    /** A new inbox, valid 24 hours; the account's oldest beyond {@link INBOX_MAX_PER_ACCOUNT} are deleted. */
    async create(actor: Actor): Promise<InboxCreated> {
      const id = randomUUID();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + INBOX_LIFETIME_MS);
      await inTransaction(db, async (tx) => {
        // One account's creations in turn, so concurrent ones cannot keep more than the bound.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`webhook-inboxes:${actor.accountId}`}))`;
        await tx.webhookInbox.create({ data: { id, accountId: actor.accountId, createdAt: now, expiresAt } });
        await tx.$executeRaw`
          DELETE FROM webhook_inboxes WHERE account_id = ${actor.accountId}::uuid AND id <> ${id}::uuid AND id NOT IN (
            SELECT id FROM webhook_inboxes WHERE account_id = ${actor.accountId}::uuid AND id <> ${id}::uuid
            ORDER BY created_at DESC, id DESC LIMIT ${INBOX_MAX_PER_ACCOUNT - 1})`;
      });
      return { id, url: inboxUrl(id), deliveriesUrl: `${links.api}/webhooks/inbox/${id}`, expiresAt };
    },

    /** What an inbox of the caller received, oldest first. Another account's or an expired inbox: not_found. */
    async read(actor: Actor, id: string): Promise<{ expiresAt: Date; deliveries: InboxDelivery[] }> {
      if (!isUuid(id)) throw notFound();
      const inbox = await db.webhookInbox.findFirst({
        where: { id, accountId: actor.accountId, expiresAt: { gt: clock.now() } },
        select: { expiresAt: true, deliveries: { orderBy: { id: 'asc' }, select: { receivedAt: true, headers: true, body: true } } },
      });
      if (!inbox) throw notFound();
      return {
        expiresAt: inbox.expiresAt,
        deliveries: inbox.deliveries.map((d) => ({ receivedAt: d.receivedAt, headers: d.headers as Record<string, string>, rawBody: d.body })),
      };
    },

    /** Whether an inbox with this id exists and has not expired (whoever made it). */
    async live(id: string): Promise<boolean> {
      return isUuid(id) && (await db.webhookInbox.count({ where: { id, expiresAt: { gt: clock.now() } } })) > 0;
    },

    /**
     * Stores one request sent to an inbox (from anyone). Keeps the newest 100;
     * a body over 256 KB is refused with payload_too_large.
     */
    async receive(id: string, request: { headers: Record<string, string>; body: Uint8Array }): Promise<void> {
      if (!isUuid(id)) throw new DomainError('not_found', 'No such webhook inbox, or it has expired.');
      if (request.body.byteLength > INBOX_MAX_BODY_BYTES) throw new DomainError('payload_too_large', 'body: larger than 256 KB');
      const text = Buffer.from(request.body).toString('utf8');
      // PostgreSQL text cannot hold NUL; a webhook body (JSON) never has one raw.
      if (text.includes('\u0000')) throw invalid('body', 'contains NUL bytes');
      const now = clock.now();
      await inTransaction(db, async (tx) => {
        // Locking the inbox row serialises concurrent senders, so the trim below stays exact.
        const live = await tx.$queryRaw<{ id: string }[]>`
          SELECT id FROM webhook_inboxes WHERE id = ${id}::uuid AND expires_at > ${now}::timestamptz FOR UPDATE`;
        if (live.length === 0) throw new DomainError('not_found', 'No such webhook inbox, or it has expired.');
        await tx.webhookInboxDelivery.create({ data: { inboxId: id, receivedAt: now, headers: request.headers, body: text } });
        await tx.$executeRaw`
          DELETE FROM webhook_inbox_deliveries WHERE inbox_id = ${id}::uuid AND id NOT IN (
            SELECT id FROM webhook_inbox_deliveries WHERE inbox_id = ${id}::uuid ORDER BY id DESC LIMIT ${INBOX_MAX_DELIVERIES})`;
      });
    },

    /** Deletes expired inboxes with what they received. Returns how many. */
    async purgeExpired(): Promise<number> {
      const { count } = await db.webhookInbox.deleteMany({ where: { expiresAt: { lte: clock.now() } } });
      return count;
    },
  };
}

export type TestInboxes = ReturnType<typeof createTestInboxes>;
