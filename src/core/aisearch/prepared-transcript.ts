import type { SearchableTranscript } from './searchable-transcript.js';
import { tokenize } from './text-tokens.js';
import { splitUnits, type UnitSpan } from './transcript-units.js';
import { alignWordTimes } from './word-alignment.js';

/** Per-transcript indexes, built once and reused by every query on that transcript. */
export interface PreparedTranscript {
  /** Segment texts joined by single spaces: every quote is a substring of it. */
  text: string;
  segmentStarts: number[];
  /** Per token: normalised word, matching stem, character span, segment, unit and start time (NaN if unknown). */
  norm: string[];
  stem: string[];
  tokenStart: Int32Array;
  tokenEnd: Int32Array;
  tokenSegment: Int32Array;
  tokenUnit: Int32Array;
  tokenTime: Float64Array;
  units: UnitSpan[];
  unitSegment: Int32Array;
  /** Stem to the indexes of the tokens carrying it, in order. */
  stemIndex: Map<string, number[]>;
  /** Normalised word to token indexes; the vocabulary searched for misspelt names. */
  wordIndex: Map<string, number[]>;
  /** Per-transcript memo for derived lookups (name variants, joined words), filled on demand. */
  memo: Map<string, unknown>;
}

/**
 * Tokenises, stems, cuts into sentence units and aligns word times, once per
 * transcript. A 20k-word transcript takes a few tens of milliseconds.
 *
 * @param stem Maps a normalised word to its matching key (see `stemOf`).
 */
export function prepareTranscript(doc: SearchableTranscript, stem: (norm: string) => string): PreparedTranscript {
  const texts = doc.segments.map((s) => (typeof s.text === 'string' ? s.text : ''));
  const text = texts.join(' ');
  const segmentStarts: number[] = [];
  const norm: string[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  const segs: number[] = [];
  const times: number[] = [];
  const units: UnitSpan[] = [];
  const unitSegs: number[] = [];
  let offset = 0;
  texts.forEach((segText, si) => {
    segmentStarts.push(offset);
    const tokens = tokenize(segText, offset);
    const firstIndex = norm.length;
    const aligned = alignWordTimes(tokens, doc.segments[si].words ?? []);
    tokens.forEach((t, i) => {
      norm.push(t.norm);
      starts.push(t.start);
      ends.push(t.end);
      segs.push(si);
      times.push(aligned[i]);
    });
    for (const u of splitUnits(text, tokens, firstIndex)) {
      units.push(u);
      unitSegs.push(si);
    }
    offset += segText.length + 1;
  });

  const tokenUnit = new Int32Array(norm.length);
  units.forEach((u, ui) => tokenUnit.fill(ui, u.firstToken, u.endToken));
  const stems = norm.map(stem);
  const stemIndex = new Map<string, number[]>();
  const wordIndex = new Map<string, number[]>();
  stems.forEach((s, i) => {
    const list = stemIndex.get(s);
    if (list) list.push(i);
    else stemIndex.set(s, [i]);
    const words = wordIndex.get(norm[i]);
    if (words) words.push(i);
    else wordIndex.set(norm[i], [i]);
  });

  return {
    text,
    segmentStarts,
    norm,
    stem: stems,
    tokenStart: Int32Array.from(starts),
    tokenEnd: Int32Array.from(ends),
    tokenSegment: Int32Array.from(segs),
    tokenUnit,
    tokenTime: Float64Array.from(times),
    units,
    unitSegment: Int32Array.from(unitSegs),
    stemIndex,
    wordIndex,
    memo: new Map(),
  };
}

/**
 * Start time of the text at `token`: the first timed word among the next three
 * tokens of the same segment, else the segment start, else null.
 */
export function timeOfToken(doc: SearchableTranscript, p: PreparedTranscript, token: number): number | null {
  const seg = p.tokenSegment[token];
  for (let i = token; i < Math.min(token + 3, p.norm.length) && p.tokenSegment[i] === seg; i++) {
    if (Number.isFinite(p.tokenTime[i])) return p.tokenTime[i];
  }
  const start = doc.segments[seg]?.start;
  return typeof start === 'number' && Number.isFinite(start) ? start : null;
}
