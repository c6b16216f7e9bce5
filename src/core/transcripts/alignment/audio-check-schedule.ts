import type { Tx } from '../../transaction.js';
import { isUntimed, type TranscriptDoc } from '../formats/transcript-doc.js';

/**
 * Called where an episode's transcript is stored with new words: the audio
 * those words were made on becomes the reference later re-splices are
 * aligned to. The transcription pipeline fingerprinted the very file it
 * transcribed (`audio_pending_references`), which is adopted here; without
 * one (a publisher's transcript) the audio is fetched and fingerprinted by an
 * audio check within the hour, spread out. Any earlier reference, map and
 * original times belonged to other words and are dropped. Untimed
 * transcripts have nothing to follow the audio.
 */
export async function scheduleAudioReference(tx: Tx, transcriptId: string, doc: TranscriptDoc): Promise<void> {
  if (isUntimed(doc) || doc.segments.length === 0) {
    await tx.$executeRaw`DELETE FROM audio_checks WHERE transcript_id = ${transcriptId}`;
    await tx.$executeRaw`DELETE FROM audio_pending_references WHERE transcript_id = ${transcriptId}`;
    return;
  }
  const adopted = await tx.$executeRaw`
    INSERT INTO audio_checks AS c (transcript_id, reference, envelope, reference_seconds, fingerprint_tool, audio_url, audio_host, content_length,
      etag, last_modified, last_result, checked_at, next_check_at)
    SELECT transcript_id, reference, envelope, reference_seconds, fingerprint_tool, audio_url, audio_host, content_length,
      etag, last_modified, 'reference taken', created_at, next_check_at
    FROM audio_pending_references WHERE transcript_id = ${transcriptId}
    ON CONFLICT (transcript_id) DO UPDATE SET base_doc = NULL, reference = EXCLUDED.reference, envelope = EXCLUDED.envelope,
      reference_seconds = EXCLUDED.reference_seconds, fingerprint_tool = EXCLUDED.fingerprint_tool, audio_url = EXCLUDED.audio_url,
      audio_host = EXCLUDED.audio_host, etag = EXCLUDED.etag, last_modified = EXCLUDED.last_modified, content_length = EXCLUDED.content_length, alignment = NULL,
      last_result = EXCLUDED.last_result, checked_at = EXCLUDED.checked_at, next_check_at = EXCLUDED.next_check_at, updated_at = now()`;
  if (adopted > 0) {
    await tx.$executeRaw`DELETE FROM audio_pending_references WHERE transcript_id = ${transcriptId}`;
    return;
  }
  await tx.$executeRaw`
    INSERT INTO audio_checks (transcript_id, next_check_at, last_result) VALUES (${transcriptId}, now() + interval '5 minutes' + random() * interval '55 minutes', 'awaiting reference')
    ON CONFLICT (transcript_id) DO UPDATE SET base_doc = NULL, reference = NULL, envelope = NULL, reference_seconds = NULL,
      fingerprint_tool = NULL, audio_url = NULL, etag = NULL, last_modified = NULL, content_length = NULL, alignment = NULL,
      last_result = 'awaiting reference', next_check_at = EXCLUDED.next_check_at, updated_at = now()`;
}

/** A feed refresh saw these episodes' enclosures (or details) change: check their audio now. */
export async function recheckAudioSoon(tx: Tx, transcriptIds: readonly string[]): Promise<void> {
  if (transcriptIds.length === 0) return;
  await tx.$executeRawUnsafe(`UPDATE audio_checks SET next_check_at = now() WHERE transcript_id = ANY($1::text[])`, [...transcriptIds]);
}

/**
 * Episodes a feed took over from the requested show, with transcripts made
 * from the requesters' files: checked now, and withdrawn by the check if the
 * feed serves another recording.
 */
export async function verifyRecordingSoon(tx: Tx, transcriptIds: readonly string[]): Promise<void> {
  if (transcriptIds.length === 0) return;
  await tx.$executeRawUnsafe(`UPDATE audio_checks SET verify_recording = true, next_check_at = now() WHERE transcript_id = ANY($1::text[])`, [...transcriptIds]);
}
