/**
 * The transcript shape AI Search reads, kept local so the search engine does
 * not depend on how transcripts are stored. Times are in seconds.
 */
export interface SearchableWord {
  /** The word as recognised. */
  w: string;
  /** Start time in seconds. */
  s: number;
}

export interface SearchableSegment {
  start: number;
  end: number;
  text: string;
  speaker: string | null;
  words: SearchableWord[];
}

export interface SearchableTranscript {
  segments: SearchableSegment[];
  language: string | null;
  /** True when word times were interpolated rather than recognised. */
  wordTimesEstimated: boolean;
}

export interface TopicMention {
  /** Verbatim substring of the transcript text. */
  quote: string;
  /** The sentences around the quote. */
  context: string;
  /** Start of the quote's first word in seconds, or null when no time can be placed. */
  timestampSeconds: number | null;
}

export interface FindResult {
  found: boolean;
  summary: string;
  /** In time order. */
  mentions: TopicMention[];
}

/**
 * The transcript text every quote must be a substring of: segment texts joined
 * by single spaces.
 */
export function transcriptText(doc: SearchableTranscript): string {
  return doc.segments.map((s) => s.text).join(' ');
}
