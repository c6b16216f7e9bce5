import type { SearchableSegment, SearchableTranscript, SearchableWord } from './searchable-transcript.js';

/** Thrown when a stored transcript document does not have the shape every parser writes. */
export class CorruptTranscriptError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CorruptTranscriptError';
  }
}

function isWord(w: unknown): w is SearchableWord {
  return typeof (w as SearchableWord)?.w === 'string' && typeof (w as SearchableWord)?.s === 'number';
}

/**
 * The stored document (a JSON column) as AI Search reads it. Every parser
 * writes `{segments: [{start, end, text, speaker, words}], language,
 * wordTimesEstimated}`; a document without segments, or with a segment
 * whose text is not a string, is corrupt and throws, so the query fails and
 * is refunded instead of answering "not found" from a broken transcript.
 * Missing word lists and times are tolerated: quotes then take segment times, or none.
 * A document with no timing at all (every time 0, as plain-text sources are
 * stored) places no quote: its mentions come back without times.
 */
export function toSearchable(stored: unknown): SearchableTranscript {
  const doc = stored as Partial<SearchableTranscript> | null;
  if (!doc || typeof doc !== 'object' || !Array.isArray(doc.segments)) {
    throw new CorruptTranscriptError('stored transcript document has no segment list');
  }
  const segments: SearchableSegment[] = doc.segments.map((s: Partial<SearchableSegment>, i: number) => {
    if (!s || typeof s !== 'object' || typeof s.text !== 'string') throw new CorruptTranscriptError(`stored transcript segment ${i} has no text`);
    return {
      start: typeof s.start === 'number' ? s.start : Number.NaN,
      end: typeof s.end === 'number' ? s.end : Number.NaN,
      text: s.text,
      speaker: typeof s.speaker === 'string' ? s.speaker : null,
      words: Array.isArray(s.words) ? s.words.filter(isWord) : [],
    };
  });
  // A source without any timing (plain text) is stored with every time at 0: those zeros place nothing.
  const untimed = segments.length > 0 && segments.every((s) => s.start === 0 && s.end === 0);
  if (untimed) for (const s of segments) Object.assign(s, { start: Number.NaN, end: Number.NaN, words: [] });
  return { segments, language: typeof doc.language === 'string' ? doc.language : null, wordTimesEstimated: doc.wordTimesEstimated === true };
}
