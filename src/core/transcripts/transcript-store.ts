import type { Tx } from '../transaction.js';
import { scheduleAudioReference } from './alignment/audio-check-schedule.js';
import type { TranscriptDoc } from './formats/transcript-doc.js';

export function countWords(doc: TranscriptDoc): number {
  return doc.segments.reduce((n, s) => n + (s.words.length || s.text.split(/\s+/).filter(Boolean).length), 0);
}

export interface StoredTranscriptInput {
  transcriptId: string;
  doc: TranscriptDoc;
  source: 'publisher' | 'asr';
  engine?: string | null;
  model?: string | null;
  language?: string | null;
  durationSeconds?: number | null;
}

/**
 * Stores (or replaces, with a new version) an episode's transcript and marks
 * the episode ready, in the caller's transaction.
 * @returns the stored version.
 */
export async function saveTranscript(tx: Tx, t: StoredTranscriptInput): Promise<number> {
  const data = {
    source: t.source,
    engine: t.engine ?? null,
    model: t.model ?? null,
    language: t.language ?? t.doc.language,
    wordTimesEstimated: t.doc.wordTimesEstimated,
    doc: t.doc as never,
    wordCount: countWords(t.doc),
    durationSeconds: t.durationSeconds ?? null,
  };
  const saved = await tx.transcript.upsert({
    where: { transcriptId: t.transcriptId },
    create: { transcriptId: t.transcriptId, ...data },
    update: { ...data, version: { increment: 1 }, updatedAt: new Date() },
    select: { version: true },
  });
  await tx.episode.update({ where: { transcriptId: t.transcriptId }, data: { transcriptStatus: 'ready', updatedAt: new Date() } });
  // The audio these times were made on becomes the reference that later re-splices are aligned to.
  await scheduleAudioReference(tx, t.transcriptId, t.doc);
  return saved.version;
}
