/**
 * The transcript document every parser produces and every renderer reads.
 * Times are seconds, rounded to milliseconds.
 */

/** One word and the second it starts at. */
export interface Word {
  w: string;
  s: number;
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
}

/**
 * Whether the document carries no timing at all (every segment at 0 s, zero
 * length), as happens for `text/plain` sources and HTML without `<time>`.
 * Renderers use it to keep source paragraphs as they are.
 */
export function isUntimed(doc: TranscriptDoc): boolean {
  return doc.segments.length > 0 && doc.segments.every((s) => s.start === 0 && s.end === 0);
}
