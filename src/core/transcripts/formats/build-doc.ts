import { roundMs } from './timecodes.js';
import type { Segment, TranscriptDoc, Word } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';
import { estimateWords } from './word-timing.js';

/**
 * Most words a document may hold, a bound on the work one transcript can
 * cause. Default: 150,000 (about 12 hours of speech at 200 words a minute;
 * longer than any episode). Storing a document costs in proportion: a
 * publisher's transcript of 1.6 million words once held the embedded
 * database for 36 s and ran it out of memory.
 */
export const MAX_TRANSCRIPT_WORDS = 150_000;

/** Most segments a document may hold. Default: 200,000 (a day of one-sentence cues). */
export const MAX_TRANSCRIPT_SEGMENTS = 200_000;

// Control characters (a NUL from a broken export) cannot be stored (PostgreSQL's
// jsonb refuses \u0000) and are never words; nor is half a surrogate pair.
const CONTROLS = /[\u0000-\u0008\u000e-\u001f\u007f]/g;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Text as stored: control characters dropped, lone surrogates replaced, whitespace collapsed. */
function cleanText(text: string): string {
  return text.replace(CONTROLS, '').replace(LONE_SURROGATE, '\ufffd').replace(/\s+/g, ' ').trim();
}

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
 * Lets a parser stop as soon as it has read too many cues, before doing any
 * further work on them.
 *
 * @throws TranscriptParseError when `count` exceeds {@link MAX_TRANSCRIPT_SEGMENTS}.
 */
export function checkSegmentCount(count: number): void {
  if (count > MAX_TRANSCRIPT_SEGMENTS) {
    throw new TranscriptParseError(`more than ${MAX_TRANSCRIPT_SEGMENTS} segments`, 'transcript');
  }
}

/**
 * Turns what a parser read into a clean {@link TranscriptDoc}: whitespace
 * collapsed and control characters dropped, empty segments dropped, times rounded to milliseconds and never
 * negative, an end before its start pulled up to the start (zero length),
 * segments sorted by start (stable, so equal starts keep source order), and
 * words estimated wherever the source gave none.
 *
 * @throws TranscriptParseError past {@link MAX_TRANSCRIPT_SEGMENTS} segments
 * or {@link MAX_TRANSCRIPT_WORDS} words.
 */
export function buildDoc(raw: readonly RawSegment[], language: string | null = null): TranscriptDoc {
  checkSegmentCount(raw.length);
  let estimated = false;
  let wordCount = 0;
  const segments: Segment[] = [];
  for (const r of raw) {
    const text = cleanText(r.text);
    if (text === '') continue;
    const start = roundMs(Math.max(0, r.start));
    const end = Math.max(start, roundMs(Math.max(0, r.end)));
    const speaker = (r.speaker && cleanText(r.speaker)) || null;
    let words = r.words?.map((w) => ({ w: cleanText(w.w), s: w.s })).filter((w) => w.w !== '');
    if (words && words.length > 0) {
      words = words
        .map((w) => ({ w: w.w, s: roundMs(Math.min(end, Math.max(start, w.s))) }))
        .sort((a, b) => a.s - b.s);
    } else {
      words = estimateWords(text, start, end);
      estimated = true;
    }
    wordCount += words.length;
    if (wordCount > MAX_TRANSCRIPT_WORDS) {
      throw new TranscriptParseError(`more than ${MAX_TRANSCRIPT_WORDS} words`, 'transcript');
    }
    segments.push({ start, end, text, speaker, words });
  }
  segments.sort((a, b) => a.start - b.start);
  return { segments, language, wordTimesEstimated: estimated };
}
