import { isUntimed, type TranscriptDoc } from './transcript-doc.js';

/** Speaker turns and readable blocks of a transcript, for text output. */
export interface Paragraph {
  speaker: string | null;
  text: string;
}

/** With no speaker to mark turns, a pause this long (seconds) starts a new paragraph. */
const PAUSE = 2;
/** With no speaker to mark turns, a paragraph this long (characters) ends at the next sentence end. */
const SOFT_LENGTH = 600;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

/**
 * Merges segments into paragraphs: one per speaker turn when speakers are
 * known. Unknown-speaker text is broken at pauses of 2 s or more, and at the
 * first sentence end once a paragraph passes 600 characters, so text without
 * speakers does not become one wall of words. An untimed document (plain-text
 * source) keeps its source paragraphs: one per segment.
 */
export function toParagraphs(doc: TranscriptDoc): Paragraph[] {
  if (isUntimed(doc)) return doc.segments.map((s) => ({ speaker: s.speaker, text: s.text }));
  const out: Paragraph[] = [];
  let last: (Paragraph & { end: number }) | null = null;
  for (const seg of doc.segments) {
    const continues =
      last !== null &&
      last.speaker === seg.speaker &&
      (seg.speaker !== null ||
        (seg.start - last.end < PAUSE && !(last.text.length >= SOFT_LENGTH && SENTENCE_END.test(last.text))));
    if (continues && last) {
      last.text += ` ${seg.text}`;
      last.end = Math.max(last.end, seg.end);
    } else {
      last = { speaker: seg.speaker, text: seg.text, end: seg.end };
      out.push(last);
    }
  }
  return out.map((p) => ({ speaker: p.speaker, text: p.text }));
}
