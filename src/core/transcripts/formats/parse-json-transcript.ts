import { buildDoc, MAX_TRANSCRIPT_WORDS, type RawSegment } from './build-doc.js';
import { parseClock } from './timecodes.js';
import type { TranscriptDoc, Word } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';

/** A pause longer than this (seconds) between two timed words starts a new segment. */
const WORD_GAP = 2;
/** Word-level entries are grouped into segments of at most this many words. */
const MAX_GROUP_WORDS = 40;
const SENTENCE_END = /[.!?…]["'”’)\]]*$/;

interface Entry {
  start: number;
  end: number;
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
 * Times may be numbers, numeric strings or clock strings; a missing
 * `endTime` is taken as the start.
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
  const end = e.endTime === undefined || e.endTime === null ? start : readTime(e.endTime);
  if (end === null) throw new TranscriptParseError(`${where}.endTime is not a time`, 'JSON');
  if (typeof e.body !== 'string') throw new TranscriptParseError(`${where}.body must be a string`, 'JSON');
  const speaker = typeof e.speaker === 'string' ? e.speaker : null;
  return { start, end, body: e.body.trim(), speaker };
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
      out.push({ start: e.start, end: e.end, text: e.body, speaker: e.speaker });
      continue;
    }
    if (group && !continuesGroup(group, e)) {
      close(group);
      group = null;
    }
    group ??= { speaker: e.speaker, start: e.start, end: e.end, words: [] };
    group.words.push({ w: e.body, s: e.start });
    group.end = Math.max(group.end, e.end);
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
