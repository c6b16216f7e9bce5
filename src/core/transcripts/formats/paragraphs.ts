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
/** …and this long, at the next segment whatever the punctuation. */
const HARD_LENGTH = 1200;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;
const ANY_SENTENCE_END = /[.!?…]/;

/** Whether an unknown speaker's paragraph has grown long enough to end before the next segment. */
function fullParagraph(text: string): boolean {
  if (text.length >= HARD_LENGTH) return true;
  // Speech recognition without punctuation never ends a sentence: its paragraphs end at the soft length.
  return text.length >= SOFT_LENGTH && (SENTENCE_END.test(text) || !ANY_SENTENCE_END.test(text));
}

/**
 * Merges segments into paragraphs: one per speaker turn when speakers are
 * known. Unknown-speaker text is broken at pauses of 2 s or more, at the
 * first sentence end once a paragraph passes 600 characters (at 600 for text
 * without any punctuation, as speech recognition writes it) and at 1,200
 * whatever, so text without speakers does not become one wall of words. An untimed document (plain-text
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
        (seg.start - last.end < PAUSE && !fullParagraph(last.text)));
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
