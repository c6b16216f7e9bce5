import * as ledger from '../ledger.js';
import { prices } from '../pricing.js';
import type { Tx } from '../transaction.js';

/**
 * Unlocks an episode Podtext holds inside the caller's transaction, by the
 * same rule and ledger reference as `POST /unlock` (transcripts.unlock): 1
 * credit once per account and episode, 0 when already unlocked or for the
 * public sample. A concurrent `POST /unlock` of the same episode charges once.
 * @returns credits charged (0 or 1).
 */
export async function unlockHeld(tx: Tx, accountId: string, transcriptId: string, sampleTranscriptId: string): Promise<number> {
  const inserted = await tx.$queryRaw<{ transcript_id: string }[]>`
    INSERT INTO unlocks (account_id, transcript_id) VALUES (${accountId}::uuid, ${transcriptId})
    ON CONFLICT DO NOTHING RETURNING transcript_id`;
  if (inserted.length === 0 || transcriptId === sampleTranscriptId) return 0;
  const { entry } = await ledger.charge(tx, accountId, prices.unlock, `unlock:${accountId}:${transcriptId}`, `Unlock ${transcriptId}`);
  await tx.unlock.update({ where: { accountId_transcriptId: { accountId, transcriptId } }, data: { ledgerId: entry.id } });
  return prices.unlock;
}

/**
 * Unlocks a freshly transcribed episode for an account whose job paid for
 * it (the unlock is included in the transcription price), pointing at the
 * charge when there was one.
 */
export async function grantIncludedUnlock(tx: Tx, accountId: string, transcriptId: string, chargeReference: string | null): Promise<void> {
  const charge = chargeReference ? await tx.ledgerEntry.findUnique({ where: { reference: chargeReference }, select: { id: true } }) : null;
  await tx.$executeRaw`
    INSERT INTO unlocks (account_id, transcript_id, ledger_id) VALUES (${accountId}::uuid, ${transcriptId}, ${charge?.id ?? null})
    ON CONFLICT DO NOTHING`;
}
