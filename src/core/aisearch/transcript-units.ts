import type { TextToken } from './text-tokens.js';

/** A sentence, or a piece of a long one: the unit quotes are cut from. */
export interface UnitSpan {
  /** Index of the unit's first token. */
  firstToken: number;
  /** Index after the unit's last token. */
  endToken: number;
  /** Character span in the transcript text, closing punctuation included. */
  start: number;
  end: number;
}

/** Sentences longer than this many words are cut into pieces, so a quote stays readable. */
export const MAX_UNIT_WORDS = 32;
/** The length cut pieces aim for. */
const PIECE_WORDS = 22;

const SENTENCE_END = /^[.!?…]+["'”’)\]]*(?:\s|$)/;
const CLAUSE_END = /^["'”’)\]]*[,;:–—-]/;
const TRAILING = /^[.!?…,;:]*["'”’)\]]*/;
// A full stop after these is part of a name or title, not the end of a sentence.
const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'prof', 'sr', 'jr', 'vs', 'etc', 'mt', 'rev', 'gen', 'col', 'capt', 'lt', 'sgt', 'fig', 'approx']);

/**
 * Cuts one segment's tokens into sentence units: at sentence-ending
 * punctuation, and pieces of about 22 words (preferably at a comma or
 * semicolon) for sentences over {@link MAX_UNIT_WORDS} words, which is also how
 * unpunctuated recogniser output is cut.
 *
 * @param text The whole transcript text the token spans point into.
 * @param tokens The segment's tokens; `firstIndex` is the global index of `tokens[0]`.
 */
export function splitUnits(text: string, tokens: TextToken[], firstIndex: number): UnitSpan[] {
  const sentences: [number, number][] = [];
  let from = 0;
  for (let i = 0; i < tokens.length; i++) {
    const after = text.slice(tokens[i].end, tokens[i].end + 8);
    const abbreviation = after.startsWith('.') && (ABBREVIATIONS.has(tokens[i].norm) || tokens[i].norm.length === 1);
    if (i === tokens.length - 1 || (!abbreviation && SENTENCE_END.test(after))) {
      sentences.push([from, i + 1]);
      from = i + 1;
    }
  }
  const units: UnitSpan[] = [];
  for (const [a, b] of sentences) {
    for (const [x, y] of cutLong(text, tokens, a, b)) {
      const start = tokens[x].start;
      const last = tokens[y - 1];
      const trail = TRAILING.exec(text.slice(last.end, last.end + 8));
      units.push({ firstToken: firstIndex + x, endToken: firstIndex + y, start, end: last.end + (trail ? trail[0].length : 0) });
    }
  }
  return units;
}

function cutLong(text: string, tokens: TextToken[], a: number, b: number): [number, number][] {
  const count = b - a;
  if (count <= MAX_UNIT_WORDS) return [[a, b]];
  const pieces = Math.ceil(count / PIECE_WORDS);
  const size = count / pieces;
  const cuts: number[] = [];
  for (let p = 1; p < pieces; p++) {
    const ideal = a + Math.round(p * size);
    let best = ideal;
    // Prefer a clause boundary near the ideal cut.
    for (let d = 0; d <= 6; d++) {
      const tryAt = [ideal + d, ideal - d].find(
        (c) => c > (cuts[cuts.length - 1] ?? a) + 4 && c < b - 4 && CLAUSE_END.test(text.slice(tokens[c - 1].end, tokens[c - 1].end + 3)),
      );
      if (tryAt !== undefined) {
        best = tryAt;
        break;
      }
    }
    cuts.push(best);
  }
  const out: [number, number][] = [];
  let prev = a;
  for (const c of [...cuts, b]) {
    if (c > prev) out.push([prev, c]);
    prev = c;
  }
  return out;
}
