import * as ledger from './ledger.js';
import { prices } from './pricing.js';
import type { Tx } from './transaction.js';

/**
 * The unlock rule, inside the caller's transaction: 1 credit once per account
 * and episode, through the ledger under one reference, 0 when already
 * unlocked or for the public sample. Concurrent unlocks of one episode by one
 * account charge once (the row insert decides). `POST /unlock` and a
 * transcription request for an episode Podtext holds both come here.
 * @returns credits charged, and the balance after a charge (null when nothing was charged).
 */
export async function unlockInTransaction(
  tx: Tx,
  accountId: string,
  transcriptId: string,
  sampleTranscriptId: string,
): Promise<{ charged: number; balanceAfter: number | null }> {
  const inserted = await tx.$queryRaw<{ transcript_id: string }[]>`
    INSERT INTO unlocks (account_id, transcript_id) VALUES (${accountId}::uuid, ${transcriptId})
    ON CONFLICT DO NOTHING RETURNING transcript_id`;
  if (inserted.length === 0 || transcriptId === sampleTranscriptId) return { charged: 0, balanceAfter: null };
  const { entry } = await ledger.charge(tx, accountId, prices.unlock, `unlock:${accountId}:${transcriptId}`, `Unlock ${transcriptId}`);
  await tx.unlock.update({ where: { accountId_transcriptId: { accountId, transcriptId } }, data: { ledgerId: entry.id } });
  return { charged: prices.unlock, balanceAfter: entry.balanceAfter };
}
