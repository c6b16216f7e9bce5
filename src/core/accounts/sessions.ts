import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import { DomainError } from '../errors.js';
import { isPlanName } from '../pricing.js';
import type { Actor } from './actor.js';
import { lookupHash } from './api-key.js';
import type { KeyService } from './key-service.js';

/** How long a website sign-in lasts, in days. Default: 30. */
export const SESSION_LIFETIME_DAYS = 30;

export interface SessionDeps {
  db: PrismaClient;
  keys: KeyService;
  clock: Clock;
}

export interface NewSession {
  /** Goes in the browser's cookie; only its hash is stored. */
  token: string;
  /** Goes in every form that changes something; derived from the token. */
  csrf: string;
  expiresAt: Date;
}

const SIGNED_OUT = 'Signed out: sign in again with your key.';

/** The CSRF token of a session: a keyed hash of its token, so nothing more is stored. */
function csrfFor(token: string): string {
  return createHash('sha256').update(`csrf:${token}`).digest('base64url');
}

/**
 * Website sign-ins with an account key. A session belongs to the key it was
 * opened with, so rotating that key signs out every browser that used it.
 */
export function createSessionService({ db, keys, clock }: SessionDeps) {
  return {
    /** Opens a session for `key`; `unauthorized` when the key is unknown or retired. */
    async create(key: string): Promise<NewSession> {
      const actor = await keys.authenticate(key.trim());
      const token = randomBytes(32).toString('base64url');
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_DAYS * 86_400_000);
      await db.siteSession.create({ data: { tokenHash: lookupHash(token), accountId: actor.accountId, keyId: actor.keyId, createdAt: now, expiresAt } });
      return { token, csrf: csrfFor(token), expiresAt };
    },

    /** The actor behind a session token; `unauthorized` when unknown, expired, or its key was rotated. */
    async authenticate(token: string): Promise<Actor> {
      if (!token || token.length > 100) throw new DomainError('unauthorized', SIGNED_OUT);
      const row = await db.siteSession.findUnique({
        where: { tokenHash: lookupHash(token) },
        select: { accountId: true, keyId: true, expiresAt: true, key: { select: { revokedAt: true } }, account: { select: { plan: true } } },
      });
      if (!row || row.key.revokedAt || row.expiresAt <= clock.now()) throw new DomainError('unauthorized', SIGNED_OUT);
      return { accountId: row.accountId, keyId: row.keyId, plan: isPlanName(row.account.plan) ? row.account.plan : 'free' };
    },

    /** The CSRF token forms of this session carry. */
    csrf: csrfFor,

    /** Whether `given` is the session's CSRF token (constant time). */
    checkCsrf(token: string, given: string | null | undefined): boolean {
      if (!given) return false;
      const want = Buffer.from(csrfFor(token));
      const got = Buffer.from(given);
      return want.length === got.length && timingSafeEqual(want, got);
    },

    /** Signs one browser out. */
    async revoke(token: string): Promise<void> {
      await db.siteSession.deleteMany({ where: { tokenHash: lookupHash(token) } });
    },

    /** Drops sessions that expired or whose key was retired (housekeeping). */
    async prune(): Promise<number> {
      const r = await db.siteSession.deleteMany({ where: { OR: [{ expiresAt: { lte: clock.now() } }, { key: { revokedAt: { not: null } } }] } });
      return r.count;
    },
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
