import { heardSegments } from './heard-segments.js';
import { roundMs } from './timecodes.js';
import type { Segment, TranscriptDoc } from './transcript-doc.js';
import { estimateWords, splitWords } from './word-timing.js';

/** Longest subtitle line, in characters. Default: 42 (a common broadcast limit). */
export const MAX_LINE_CHARS = 42;
/** Most lines in one subtitle cue. Default: 2. */
export const MAX_CUE_LINES = 2;
/** Reading speed used to give zero-length segments a display time, in characters per second. */
const READING_CHARS_PER_SECOND = 15;

/** One subtitle cue, ready to be written as SRT or WebVTT. */
export interface Cue {
  start: number;
  end: number;
  speaker: string | null;
  lines: string[];
}

export interface CueLayoutOptions {
  /** Start the first cue of each speaker turn with `Name: ` (SRT has no other way to name speakers). */
  labelTurns: boolean;
}

/**
 * Cuts a transcript into subtitle cues of at most two 42-character lines,
 * of the audio as served now (see {@link heardSegments}: no words cut out of
 * it, no cue across an inserted ad).
 * A segment too long for one cue is split between words, into cues of about
 * equal length, each starting at its first word's time (estimated from the
 * segment times when its `words` do not match its text word for word). Cues
 * are sorted by start (WebVTT requires it) and always end after they start: a
 * zero-length segment is shown for its reading time, cut short by the next
 * later cue (before it is split, so the cues of one such segment follow each
 * other rather than all starting at once).
 */
export function layoutCues(doc: TranscriptDoc, options: CueLayoutOptions): Cue[] {
  const cues: Cue[] = [];
  let previousSpeaker: string | null | undefined;
  for (const seg of withReadingTime(heardSegments(doc))) {
    const tokens = splitWords(seg.text);
    if (tokens.length === 0) continue;
    // The text is what readers see; word times are used when they line up with it.
    const words = seg.words.length === tokens.length ? seg.words : estimateWords(seg.text, seg.start, seg.end);
    // The label is glued to the first word so a line break never separates them.
    if (options.labelTurns && seg.speaker !== null && seg.speaker !== previousSpeaker) {
      tokens[0] = `${seg.speaker}: ${tokens[0]}`;
    }
    previousSpeaker = seg.speaker;
    const chunks = chunkTokens(tokens);
    let from = 0;
    let start = seg.start;
    chunks.forEach((chunk, k) => {
      const nextFrom = from + chunk.length;
      const end =
        k === chunks.length - 1 ? seg.end : Math.min(seg.end, Math.max(start, words[nextFrom].s));
      cues.push({ start, end, speaker: seg.speaker, lines: wrapLines(chunk) ?? [chunk.join(' ')] });
      from = nextFrom;
      start = end;
    });
  }
  cues.sort((a, b) => a.start - b.start);
  fixZeroLength(cues);
  return cues;
}

/**
 * Wraps words into at most two lines of {@link MAX_LINE_CHARS}, breaking as
 * near the middle as possible (balanced lines read better than a full line
 * over a short one). Returns null when they do not fit; a single overlong
 * word gets a line of its own.
 */
export function wrapLines(tokens: string[]): string[] | null {
  const text = tokens.join(' ');
  if (text.length <= MAX_LINE_CHARS || tokens.length === 1) return [text];
  let best: string[] | null = null;
  let bestDiff = Infinity;
  let firstLength = -1;
  for (let i = 1; i < tokens.length; i++) {
    firstLength += tokens[i - 1].length + 1;
    const secondLength = text.length - firstLength - 1;
    if (firstLength > MAX_LINE_CHARS) break;
    const diff = Math.abs(firstLength - secondLength);
    if (secondLength <= MAX_LINE_CHARS && diff < bestDiff) {
      best = [tokens.slice(0, i).join(' '), tokens.slice(i).join(' ')];
      bestDiff = diff;
    }
  }
  return best;
}

function chunkTokens(tokens: string[]): string[][] {
  const greedy = fill(tokens, Infinity);
  if (greedy.length === 1) return greedy;
  // Aim for equal cues so a segment does not end on a one-word flash.
  const total = tokens.join(' ').length;
  const balanced = fill(tokens, Math.ceil(total / greedy.length));
  return balanced.length === greedy.length ? balanced : greedy;
}

function fill(tokens: string[], target: number): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let length = -1;
  for (const token of tokens) {
    const longer = length + token.length + 1;
    if (chunk.length > 0 && (length >= target || wrapLines([...chunk, token]) === null)) {
      chunks.push(chunk);
      chunk = [];
      length = -1;
    }
    chunk.push(token);
    length = chunk.length === 1 ? token.length : longer;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/** Seconds a text stays on screen when its source gives it no length. */
function readingTime(text: string): number {
  return Math.max(1, text.length / READING_CHARS_PER_SECOND);
}

/**
 * Zero-length segments (an SRT cue ending where it starts, a JSON entry
 * without `endTime`) given their reading time, cut short by the next later
 * segment, with words spread over it.
 */
function withReadingTime(segments: Segment[]): Segment[] {
  if (segments.every((s) => s.end > s.start)) return segments;
  const byStart = segments.map((s, i) => [s.start, i] as const).sort((a, b) => a[0] - b[0]);
  const nextStart: (number | null)[] = new Array(segments.length);
  let later: number | null = null;
  for (let k = byStart.length - 1; k >= 0; k--) {
    if (k + 1 < byStart.length && byStart[k + 1][0] > byStart[k][0]) later = byStart[k + 1][0];
    nextStart[byStart[k][1]] = later;
  }
  return segments.map((seg, i) => {
    if (seg.end > seg.start) return seg;
    const next = nextStart[i];
    const end = roundMs(seg.start + (next === null ? readingTime(seg.text) : Math.min(readingTime(seg.text), next - seg.start)));
    return { ...seg, end, words: estimateWords(seg.text, seg.start, end) };
  });
}

function fixZeroLength(cues: Cue[]): void {
  let nextStart: number | null = null;
  for (let i = cues.length - 1; i >= 0; i--) {
    const cue = cues[i];
    if (i + 1 < cues.length && cues[i + 1].start > cue.start) nextStart = cues[i + 1].start;
    if (cue.end > cue.start) continue;
    const reading = readingTime(cue.lines.join(' '));
    cue.end = roundMs(cue.start + (nextStart === null ? reading : Math.min(reading, nextStart - cue.start)));
  }
}
