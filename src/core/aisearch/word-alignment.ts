import type { SearchableWord } from './searchable-transcript.js';
import { tokenize, type TextToken } from './text-tokens.js';

/** How far ahead in the word list a text token may find its word; beyond it the token stays untimed. */
const LOOKAHEAD = 6;

/**
 * Gives each text token of one segment the start time of its recognised word.
 * Words and text are matched in order by normalised form, so punctuation,
 * casing and a few inserted or missing words do not break the alignment;
 * tokens that find no word get NaN.
 */
export function alignWordTimes(tokens: TextToken[], words: SearchableWord[]): Float64Array {
  const times = new Float64Array(tokens.length).fill(NaN);
  const timed: { norm: string; s: number }[] = [];
  for (const word of words) {
    if (typeof word?.w !== 'string' || !Number.isFinite(word.s)) continue;
    // A recognised "mother-in-law" is three text tokens, all starting with that word.
    for (const t of tokenize(word.w)) timed.push({ norm: t.norm, s: word.s });
  }
  let j = 0;
  for (let i = 0; i < tokens.length && j < timed.length; i++) {
    const limit = Math.min(timed.length, j + LOOKAHEAD);
    for (let k = j; k < limit; k++) {
      if (timed[k].norm === tokens[i].norm) {
        times[i] = timed[k].s;
        j = k + 1;
        break;
      }
    }
  }
  return times;
}
