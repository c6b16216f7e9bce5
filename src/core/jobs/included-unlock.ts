import type { Tx } from '../transaction.js';

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
