import type { Tx } from '../../transaction.js';
import { isUntimed, type TranscriptDoc } from '../formats/transcript-doc.js';

/**
 * Called where an episode's transcript is stored with new words: the audio
 * those words were made on becomes the reference, fingerprinted by the next
 * audio check (due at once). Any earlier reference, map and original times
 * belonged to other words and are dropped. Untimed transcripts have nothing
 * to follow the audio.
 */
export async function scheduleAudioReference(tx: Tx, transcriptId: string, doc: TranscriptDoc): Promise<void> {
  if (isUntimed(doc) || doc.segments.length === 0) {
    await tx.$executeRaw`DELETE FROM audio_checks WHERE transcript_id = ${transcriptId}`;
    return;
  }
  await tx.$executeRaw`
    INSERT INTO audio_checks (transcript_id, next_check_at, last_result) VALUES (${transcriptId}, now(), 'awaiting reference')
    ON CONFLICT (transcript_id) DO UPDATE SET base_doc = NULL, reference = NULL, envelope = NULL, reference_seconds = NULL,
      fingerprint_tool = NULL, audio_url = NULL, etag = NULL, last_modified = NULL, content_length = NULL, alignment = NULL,
      last_result = 'awaiting reference', next_check_at = now(), updated_at = now()`;
}

/** A feed refresh saw these episodes' enclosures (or details) change: check their audio now. */
export async function recheckAudioSoon(tx: Tx, transcriptIds: readonly string[]): Promise<void> {
  if (transcriptIds.length === 0) return;
  await tx.$executeRawUnsafe(`UPDATE audio_checks SET next_check_at = now() WHERE transcript_id = ANY($1::text[])`, [...transcriptIds]);
}
