import { buildDoc, MAX_TRANSCRIPT_WORDS, type RawSegment } from './build-doc.js';
import { parseClock } from './timecodes.js';
import type { TranscriptDoc, Word } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';

/** A pause longer than this (seconds) between two timed words starts a new segment. */
const WORD_GAP = 2;
/** Word-level entries are grouped into segments of at most this many words. */
const MAX_GROUP_WORDS = 40;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;
/** Speaking rate used to guess how long the last phrase without `endTime` lasts, in words per second (150 wpm). */
const WORDS_PER_SECOND = 2.5;

interface Entry {
  start: number;
  /** Null when the source gives no `endTime` (the spec makes it optional). */
  end: number | null;
  body: string;
  speaker: string | null;
}

/**
 * Parses a Podcasting 2.0 JSON transcript (`application/json`):
 * `{ "segments": [{ "speaker", "startTime", "endTime", "body" }] }`.
 *
 * Entries whose body is a single word (the word-level shape of the spec's
 * example) are grouped into sentence segments: a group ends at sentence
 * punctuation, a speaker change, a pause over 2 s or 40 words, and each
 * entry's `startTime` is kept as that word's real start. Entries holding
 * several words stay one segment each, with word starts estimated.
 * Times may be numbers, numeric strings or clock strings. A phrase entry
 * without `endTime` (optional in the spec) ends where the next later entry
 * starts, the last one after its words at 150 words per minute; a word
 * entry without one ends where it starts.
 *
 * @throws TranscriptParseError when the body is not JSON, has no `segments`
 * array, or an entry lacks a readable `startTime` or a string `body`.
 */
export function parseJsonTranscript(text: string): TranscriptDoc {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new TranscriptParseError(`not valid JSON (${(err as Error).message})`, 'JSON');
  }
  const list = Array.isArray(data) ? data : (data as { segments?: unknown } | null)?.segments;
  if (!Array.isArray(list)) {
    throw new TranscriptParseError('expected an object with a "segments" array', 'JSON');
  }
  const language = (data as { language?: unknown }).language;
  // Every entry holds at least one word, so this bounds the work before reading them.
  if (list.length > MAX_TRANSCRIPT_WORDS) {
    throw new TranscriptParseError(`more than ${MAX_TRANSCRIPT_WORDS} entries`, 'JSON');
  }
  const entries = list.map(readEntry).sort((a, b) => a.start - b.start);
  endPhrases(entries);
  return buildDoc(groupWords(entries), typeof language === 'string' && language !== '' ? language : null);
}

function readEntry(value: unknown, index: number): Entry {
  const where = `segments[${index}]`;
  if (typeof value !== 'object' || value === null) {
    throw new TranscriptParseError(`${where} is not an object`, 'JSON');
  }
  const e = value as Record<string, unknown>;
  const start = readTime(e.startTime);
  if (start === null) throw new TranscriptParseError(`${where}.startTime is missing or not a time`, 'JSON');
  const end = e.endTime === undefined || e.endTime === null ? null : readTime(e.endTime);
  if (end === null && e.endTime !== undefined && e.endTime !== null) throw new TranscriptParseError(`${where}.endTime is not a time`, 'JSON');
  if (typeof e.body !== 'string') throw new TranscriptParseError(`${where}.body must be a string`, 'JSON');
  const speaker = typeof e.speaker === 'string' ? e.speaker : null;
  return { start, end, body: e.body.trim(), speaker };
}

/** Gives phrase entries without an end one (see {@link parseJsonTranscript}); `entries` sorted by start. */
function endPhrases(entries: Entry[]): void {
  let nextStart: number | null = null;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i];
    if (i + 1 < entries.length && entries[i + 1].start > e.start) nextStart = entries[i + 1].start;
    if (e.end === null && /\s/.test(e.body)) e.end = nextStart ?? e.start + e.body.split(/\s+/).length / WORDS_PER_SECOND;
  }
}

function readTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : parseClock(value);
}

interface Group {
  speaker: string | null;
  start: number;
  end: number;
  words: Word[];
}

function groupWords(entries: Entry[]): RawSegment[] {
  const out: RawSegment[] = [];
  const close = (g: Group) => out.push({ ...g, text: g.words.map((w) => w.w).join(' ') });
  let group: Group | null = null;
  for (const e of entries) {
    if (e.body === '') continue;
    if (/\s/.test(e.body)) {
      if (group) close(group);
      group = null;
      out.push({ start: e.start, end: e.end ?? e.start, text: e.body, speaker: e.speaker });
      continue;
    }
    if (group && !continuesGroup(group, e)) {
      close(group);
      group = null;
    }
    group ??= { speaker: e.speaker, start: e.start, end: e.start, words: [] };
    group.words.push({ w: e.body, s: e.start });
    group.end = Math.max(group.end, e.end ?? e.start);
  }
  if (group) close(group);
  return out;
}

function continuesGroup(g: Group, e: Entry): boolean {
  return (
    g.speaker === e.speaker &&
    e.start - g.end <= WORD_GAP &&
    g.words.length < MAX_GROUP_WORDS &&
    !SENTENCE_END.test(g.words[g.words.length - 1].w)
  );
}
