import { buildDoc, type RawSegment } from '../transcripts/formats/build-doc.js';
import type { TranscriptDoc } from '../transcripts/formats/transcript-doc.js';

/** A recognised word with its start and end in seconds from the start of the episode. */
export interface TimedWord {
  w: string;
  s: number;
  e: number;
}

/** A pause at least this long starts a new segment, in seconds. Default: 0.6. */
const PAUSE_SECONDS = 0.6;
/** Longest segment, in seconds, so cues stay readable. Default: 15. */
const MAX_SEGMENT_SECONDS = 15;

/**
 * Groups recognised words into segments at pauses (speech engines give no
 * punctuation worth trusting), keeping each word's own start time.
 * `wordTimesEstimated`: the engine spread some words over their phrase
 * (it timed phrases only), so the document says its word times are estimates.
 */
export function asrDoc(words: readonly TimedWord[], language: string | null, wordTimesEstimated = false): TranscriptDoc {
  const raw: RawSegment[] = [];
  let current: TimedWord[] = [];
  const flush = () => {
    if (current.length === 0) return;
    raw.push({
      start: current[0]!.s,
      end: current[current.length - 1]!.e,
      text: current.map((x) => x.w).join(' '),
      words: current.map((x) => ({ w: x.w, s: x.s })),
    });
    current = [];
  };
  for (const word of words) {
    const last = current[current.length - 1];
    if (last && (word.s - last.e >= PAUSE_SECONDS || word.e - current[0]!.s > MAX_SEGMENT_SECONDS)) flush();
    current.push(word);
  }
  flush();
  const doc = buildDoc(raw, language);
  return wordTimesEstimated ? { ...doc, wordTimesEstimated: true } : doc;
}
