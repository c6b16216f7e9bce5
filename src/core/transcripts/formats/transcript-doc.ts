/**
 * The transcript document every parser produces and every renderer reads.
 * Times are seconds, rounded to milliseconds.
 */

/** One word and the second it starts at. */
export interface Word {
  w: string;
  s: number;
  /** Set when the audio served now no longer has this word (its stretch was cut out); `s` is then where the cut is. */
  removed?: true;
}

/** A stretch of speech by one speaker (or an unknown one). */
export interface Segment {
  start: number;
  end: number;
  text: string;
  speaker: string | null;
  /** Always present: estimated from the segment times when the source has none. */
  words: Word[];
}

export interface TranscriptDoc {
  segments: Segment[];
  /** BCP 47 tag when the source states one, else null. */
  language: string | null;
  /** True when any word start was estimated rather than read from the source. */
  wordTimesEstimated: boolean;
  /** Present once the times were moved to follow re-spliced audio: which audio they match now. */
  alignment?: DocAlignment;
}

/** The audio a re-timed transcript's times match (see `core/transcripts/alignment`). */
export interface DocAlignment {
  /** Length of that audio, in seconds. */
  audioSeconds: number;
  /** When it was fingerprinted, ISO 8601. */
  checkedAt: string;
  /** Its stretches that the transcribed audio did not have: inserted ads. */
  adBreaks: { start: number; end: number }[];
  /** Stretches of the transcribed audio it no longer has: where each was cut out, and how long it was. */
  removed: { at: number; seconds: number }[];
}

/**
 * Whether the document carries no timing at all (every segment at 0 s, zero
 * length), as happens for `text/plain` sources and HTML without `<time>`.
 * Renderers use it to keep source paragraphs as they are.
 */
export function isUntimed(doc: TranscriptDoc): boolean {
  return doc.segments.length > 0 && doc.segments.every((s) => s.start === 0 && s.end === 0);
}
