import { roundMs } from './timecodes.js';
import { isUntimed, type TranscriptDoc } from './transcript-doc.js';
import { estimateWords } from './word-timing.js';

/** Reading speed that stands in for the audio's length when it is unknown, in characters per second. */
const SPOKEN_CHARS_PER_SECOND = 15;

/**
 * A transcript without any times (plain text, HTML without `<time>`) laid
 * out in order over the episode's length, each segment in proportion to its
 * text and each word estimated within it, so subtitles follow one another
 * instead of all starting at 0. Without a known length, the text's reading
 * time stands in. Timed documents are returned as they are.
 */
export function spreadUntimed(doc: TranscriptDoc, durationSeconds: number | null): TranscriptDoc {
  if (!isUntimed(doc)) return doc;
  const lengths = doc.segments.map((s) => Math.max(1, s.text.length));
  const total = lengths.reduce((a, b) => a + b, 0);
  const seconds = durationSeconds && durationSeconds > 0 ? durationSeconds : total / SPOKEN_CHARS_PER_SECOND;
  let at = 0;
  const segments = doc.segments.map((s, i) => {
    const start = roundMs(at);
    at += (seconds * lengths[i]!) / total;
    const end = roundMs(at);
    return { ...s, start, end, words: estimateWords(s.text, start, end) };
  });
  return { ...doc, segments, wordTimesEstimated: true };
}
