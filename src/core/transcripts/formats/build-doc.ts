import { roundMs } from './timecodes.js';
import type { Segment, TranscriptDoc, Word } from './transcript-doc.js';
import { estimateWords } from './word-timing.js';

/** A segment as a parser first sees it, before clean-up. */
export interface RawSegment {
  start: number;
  end: number;
  text: string;
  speaker?: string | null;
  /** Real word times from the source; omitted when it only times segments. */
  words?: Word[];
}

/**
 * Turns what a parser read into a clean {@link TranscriptDoc}: whitespace
 * collapsed, empty segments dropped, times rounded to milliseconds and never
 * negative, an end before its start pulled up to the start (zero length),
 * segments sorted by start (stable, so equal starts keep source order), and
 * words estimated wherever the source gave none.
 */
export function buildDoc(raw: readonly RawSegment[], language: string | null = null): TranscriptDoc {
  let estimated = false;
  const segments: Segment[] = [];
  for (const r of raw) {
    const text = r.text.replace(/\s+/g, ' ').trim();
    if (text === '') continue;
    const start = roundMs(Math.max(0, r.start));
    const end = Math.max(start, roundMs(Math.max(0, r.end)));
    const speaker = r.speaker?.replace(/\s+/g, ' ').trim() || null;
    let words = r.words?.filter((w) => w.w.trim() !== '');
    if (words && words.length > 0) {
      words = words
        .map((w) => ({ w: w.w.trim(), s: roundMs(Math.min(end, Math.max(start, w.s))) }))
        .sort((a, b) => a.s - b.s);
    } else {
      words = estimateWords(text, start, end);
      estimated = true;
    }
    segments.push({ start, end, text, speaker, words });
  }
  segments.sort((a, b) => a.start - b.start);
  return { segments, language, wordTimesEstimated: estimated };
}
