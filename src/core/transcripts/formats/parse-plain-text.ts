import { buildDoc, checkSegmentCount, type RawSegment } from './build-doc.js';
import { takeSpeakerPrefix } from './speaker-prefix.js';
import type { TranscriptDoc } from './transcript-doc.js';

/**
 * Parses an untimed plain-text transcript (`text/plain`). Paragraphs are
 * separated by blank lines; a line starting with a `Name:` label also starts
 * a new paragraph and sets the speaker, which carries over to unlabelled
 * paragraphs that follow.
 *
 * The document type has no "no time" value, so rather than invent times from
 * a guessed speaking rate every segment and word is placed at 0 s with zero
 * length and `wordTimesEstimated` is true; `isUntimed` recognises such a
 * document and renderers keep its paragraphs as they are.
 */
export function parsePlainText(text: string): TranscriptDoc {
  const raw: RawSegment[] = [];
  let speaker: string | null = null;
  let current: RawSegment | null = null;
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (trimmed === '') {
      current = null;
      continue;
    }
    const label = takeSpeakerPrefix(trimmed);
    if (label) speaker = label.speaker;
    if (label || !current) {
      current = { start: 0, end: 0, text: label ? label.rest : trimmed, speaker };
      checkSegmentCount(raw.push(current));
    } else {
      current.text += ` ${trimmed}`;
    }
  }
  return buildDoc(raw);
}
