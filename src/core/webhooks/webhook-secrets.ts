import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { SecretBox } from '../../infra/secret-box.js';
import type { Clock } from '../clock.js';
import type { SealedSecrets } from './delivery-claims.js';

/** How long the replaced secret still signs after a rotation, in ms. Default: 24 hours. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** A fresh secret: a recognisable prefix and 256 random bits. */
function generateSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/**
 * Per-account signing secrets, sealed at rest. The first read creates one;
 * a rotation keeps the replaced secret signing for 24 hours, so receivers can
 * switch over without dropping deliveries.
 */
export function createWebhookSecrets(deps: { db: PrismaClient; box: SecretBox; clock: Clock }) {
  const { db, box, clock } = deps;

  async function current(accountId: string): Promise<{ secret: string; previous: string | null; rotatedAt: Date | null }> {
    let row = await db.webhookSecret.findUnique({ where: { accountId } });
    if (!row) {
      // Two first reads at once: one insert wins, both then read the winner.
      await db.webhookSecret.createMany({
        data: [{ accountId, sealedSecret: box.seal(generateSecret()), createdAt: clock.now() }],
        skipDuplicates: true,
      });
      row = await db.webhookSecret.findUniqueOrThrow({ where: { accountId } });
    }
    return {
      secret: box.open(row.sealedSecret),
      previous: row.sealedPrevious ? box.open(row.sealedPrevious) : null,
      rotatedAt: row.rotatedAt,
    };
  }

  return {
    /** The account's secret, created on first call. */
    async get(accountId: string): Promise<string> {
      return (await current(accountId)).secret;
    },

    /**
     * Replaces the secret. The one replaced keeps signing for 24 hours; a second
     * rotation within that time drops the oldest.
     */
    async rotate(accountId: string): Promise<{ secret: string; rotated: boolean }> {
      const fresh = generateSecret();
      const now = clock.now();
      // xmax is 0 for a row this statement inserted: there was no secret to rotate, only one to create.
      const [row] = await db.$queryRaw<{ rotated: boolean }[]>`
        INSERT INTO webhook_secrets (account_id, sealed_secret, created_at)
        VALUES (${accountId}::uuid, ${box.seal(fresh)}, ${now})
        ON CONFLICT (account_id) DO UPDATE
          SET sealed_previous = webhook_secrets.sealed_secret, sealed_secret = EXCLUDED.sealed_secret, rotated_at = ${now}
        RETURNING (xmax::text <> '0') AS rotated`;
      return { secret: fresh, rotated: row?.rotated ?? false };
    },

    /**
     * The secrets a delivery at `at` is signed with: the current one first, then
     * the previous while it still signs. `sealed` is the stored row when the
     * caller has it already; without it, it is read (and created if missing).
     */
    async signingSecrets(accountId: string, at: Date, sealed?: SealedSecrets | null): Promise<string[]> {
      const s = sealed
        ? { secret: box.open(sealed.sealedSecret), previous: sealed.sealedPrevious ? box.open(sealed.sealedPrevious) : null, rotatedAt: sealed.rotatedAt }
        : await current(accountId);
      const overlapping = s.previous !== null && s.rotatedAt !== null && at.getTime() - s.rotatedAt.getTime() < ROTATION_OVERLAP_MS;
      return overlapping ? [s.secret, s.previous!] : [s.secret];
    },
  };
}

export type WebhookSecrets = ReturnType<typeof createWebhookSecrets>;
