import { randomUUID } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { SecretBox } from '../../infra/secret-box.js';
import { DomainError } from '../errors.js';
import { isPlanName } from '../pricing.js';
import { inTransaction, type Tx } from '../transaction.js';
import type { Actor } from './actor.js';
import { generateKey, lookupHash, looksLikeKey } from './api-key.js';

export interface KeyServiceDeps {
  db: PrismaClient;
  box: SecretBox;
  bus: EventBus;
}

const UNKNOWN = Symbol('unknown');

/**
 * Finds the account behind a key without touching the database when warm.
 * Entries are dropped by `key.revoked` and `account.changed` events, which
 * arrive from every process on PostgreSQL.
 */
export function createKeyService({ db, box, bus }: KeyServiceDeps) {
  const cache = new LRUCache<string, Actor | typeof UNKNOWN>({ max: 100_000 });
  const hashesByAccount = new Map<string, Set<string>>();

  function forget(accountId: string): void {
    for (const h of hashesByAccount.get(accountId) ?? []) cache.delete(h);
    hashesByAccount.delete(accountId);
  }
  bus.subscribe((e) => {
    if (e.type === 'key.revoked') {
      cache.delete(e.lookupHash);
      forget(e.accountId);
    } else if (e.type === 'account.changed') {
      forget(e.accountId);
    } else if (e.type === 'bus.reconnected') {
      cache.clear();
      hashesByAccount.clear();
    }
  });

  async function load(where: { lookupHash: string } | { id: string }): Promise<Actor | typeof UNKNOWN> {
    const row = await db.apiKey.findUnique({
      where,
      select: { id: true, accountId: true, revokedAt: true, account: { select: { plan: true } } },
    });
    if (!row || row.revokedAt) return UNKNOWN;
    return { accountId: row.accountId, keyId: row.id, plan: isPlanName(row.account.plan) ? row.account.plan : 'free' };
  }

  /** The cached actor under `entry` (a key's hash, or `id:` and its id), loaded when missing. */
  async function cached(entry: string, where: { lookupHash: string } | { id: string }): Promise<Actor> {
    let actor = cache.get(entry);
    if (actor === undefined) {
      actor = await load(where);
      cache.set(entry, actor);
      if (actor !== UNKNOWN) {
        const set = hashesByAccount.get(actor.accountId) ?? new Set();
        set.add(entry);
        hashesByAccount.set(actor.accountId, set);
      }
    }
    if (actor === UNKNOWN) throw new DomainError('unauthorized', 'Unknown API key');
    return actor;
  }

  return {
    /** The actor for `key`; `unauthorized` for a missing, malformed, unknown or retired key. */
    async authenticate(key: string): Promise<Actor> {
      if (!looksLikeKey(key)) throw new DomainError('unauthorized', 'Unknown API key');
      const hash = lookupHash(key);
      return cached(hash, { lookupHash: hash });
    },

    /**
     * `authenticate` without waiting, for a key already known here (the door's
     * warm path takes no promise for it); `undefined` when the key must be
     * read first. Throws `unauthorized` as `authenticate` does.
     */
    known(key: string): Actor | undefined {
      if (!looksLikeKey(key)) throw new DomainError('unauthorized', 'Unknown API key');
      const actor = cache.get(lookupHash(key));
      if (actor === UNKNOWN) throw new DomainError('unauthorized', 'Unknown API key');
      return actor;
    },

    /**
     * `actor` as its account is now (its plan, after an upgrade, a downgrade
     * or `set-plan`), for a transport that authenticated the key earlier (a
     * graphql-ws handshake); `unauthorized` once the key is retired. Cached
     * like `authenticate`, and dropped by the same events.
     */
    async current(actor: Actor): Promise<Actor> {
      return cached(`id:${actor.keyId}`, { id: actor.keyId });
    },

    /** Issues a first key inside the caller's transaction. */
    async issue(tx: Tx, accountId: string): Promise<string> {
      const key = generateKey();
      await tx.apiKey.create({ data: { id: randomUUID(), accountId, lookupHash: lookupHash(key), encryptedKey: box.seal(key) } });
      return key;
    },

    /** The account's current key in plain text, for re-sending it by mail. */
    async currentKey(tx: Tx, accountId: string): Promise<string | null> {
      const row = await tx.apiKey.findFirst({ where: { accountId, revokedAt: null }, select: { encryptedKey: true } });
      return row ? box.open(row.encryptedKey) : null;
    },

    /**
     * Retires the calling key at once and issues a new one. Credits, plan and
     * unlocks belong to the account, so they move across by construction.
     * Rotations sent at once with one key: the first retires it, the others
     * are `unauthorized` (the key they came with is retired), so no caller is
     * handed a key that a rotation beside it has already retired.
     */
    async rotate(actor: Actor): Promise<{ key: string }> {
      const key = generateKey();
      const revoked = await inTransaction(db, async (tx) => {
        const old = await tx.$queryRaw<{ id: string; lookup_hash: string }[]>`
          UPDATE api_keys SET revoked_at = now()
          WHERE account_id = ${actor.accountId}::uuid AND revoked_at IS NULL RETURNING id, lookup_hash`;
        if (!old.some((r) => r.id === actor.keyId)) throw new DomainError('unauthorized', 'API key retired: another rotation replaced it');
        await tx.apiKey.create({ data: { id: randomUUID(), accountId: actor.accountId, lookupHash: lookupHash(key), encryptedKey: box.seal(key) } });
        // A registration link still unspent would answer with the new key: whoever holds an old mail is shut out too.
        await tx.$executeRaw`
          UPDATE registration_tokens SET used_at = now()
          WHERE used_at IS NULL AND email = (SELECT email FROM accounts WHERE id = ${actor.accountId}::uuid)`;
        return old.map((r) => r.lookup_hash);
      });
      for (const h of revoked) await bus.publish({ type: 'key.revoked', accountId: actor.accountId, lookupHash: h });
      return { key };
    },
  };
}

export type KeyService = ReturnType<typeof createKeyService>;
