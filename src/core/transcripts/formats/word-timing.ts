import { roundMs } from './timecodes.js';
import type { Word } from './transcript-doc.js';

/** Splits text into the words a transcript stores (whitespace-separated tokens). */
export function splitWords(text: string): string[] {
  return text.split(/\s+/).filter((w) => w.length > 0);
}

/**
 * Estimates word starts when a source only times whole segments: the
 * segment's duration is shared out in proportion to each word's length
 * (counting the space after it), since longer words take longer to say.
 *
 * @example estimateWords('I am here', 0, 1) // [{w:'I',s:0},{w:'am',s:0.2},{w:'here',s:0.5}]
 */
export function estimateWords(text: string, start: number, end: number): Word[] {
  const words = splitWords(text);
  const weights = words.map((w) => w.length + 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const duration = Math.max(0, end - start);
  let before = 0;
  return words.map((w, i) => {
    const s = roundMs(start + (duration * before) / total);
    before += weights[i];
    return { w, s };
  });
}
