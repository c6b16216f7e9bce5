import type { PrismaClient } from '../../generated/prisma/client.js';
import { OperatorError } from '../operator-error.js';
import { type ResolvedSecret, type SecretBox, canOpen } from '../secret-box.js';

const CHECK_TEXT = 'podtext secret key check';

/**
 * Refuses to start a process whose secret key is not the one the database's
 * keys and webhook secrets are sealed with. Without it, a second process on
 * one PostgreSQL (its own DATA_DIR, no SECRET_KEY) generated its own secret and
 * ran: webhook signing, registration mails and secret reads failed there, for
 * good. The first process to start writes the check (a database from before it
 * is judged by one of its stored keys); every process after must open it.
 */
export async function ensureSameSecretKey(db: PrismaClient, box: SecretBox, secret: ResolvedSecret): Promise<void> {
  let check = await db.secretKeyCheck.findUnique({ where: { id: 1 } });
  if (!check) {
    const stored = await db.apiKey.findFirst({ select: { encryptedKey: true } });
    if (stored && !canOpen(box, stored.encryptedKey)) throw mismatch(secret);
    // Two processes starting at once: one row wins, the other is judged by it.
    await db.secretKeyCheck.createMany({ data: [{ id: 1, sealed: box.seal(CHECK_TEXT) }], skipDuplicates: true });
    check = await db.secretKeyCheck.findUniqueOrThrow({ where: { id: 1 } });
  }
  if (!canOpen(box, check.sealed)) throw mismatch(secret);
}

function mismatch({ from }: ResolvedSecret): OperatorError {
  return new OperatorError(
    `Invalid configuration:\n  SECRET_KEY: the secret key in use (${from}) is not the one this database's API keys and webhook secrets are sealed with. ` +
      'Every process on one database needs the same secret: set SECRET_KEY to the same value on each, or copy the first process\'s $DATA_DIR/secret.key. Nothing was changed.',
    2,
  );
}
