import type { AsrWord } from './asr-engine.js';

/**
 * Tokens engines emit that are not words: sphinx's `<s>`, `</s>`, `<sil>`,
 * `[NOISE]`, `[SPEECH]`, `++BREATH++`, `(NULL)`; whisper's `[_BEG_]`,
 * `[_TT_150]`, `<|endoftext|>`, `[BLANK_AUDIO]`, `[Music]`.
 */
export function isFillerToken(token: string): boolean {
  const t = token.trim();
  return t === '' || /^(<[^>]*>|<\|[^|]*\|>|\[[^\]]*\]|\+\+[^+]*\+\+|\(NULL\)|\([^)]*\))$/i.test(t);
}

/** Rounds to milliseconds: finer precision is noise for every engine we run. */
export function roundTime(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/**
 * Words with only a span for the whole phrase (a segment) get times spread
 * over the span in proportion to their length in characters. More than one
 * word spread this way makes a result's `wordTimesEstimated` true.
 */
export function spreadWords(text: string, startSeconds: number, endSeconds: number): AsrWord[] {
  const parts = text.split(/\s+/).filter((p) => p && !isFillerToken(p));
  const total = parts.reduce((n, p) => n + p.length, 0);
  const span = Math.max(0, endSeconds - startSeconds);
  const words: AsrWord[] = [];
  let at = startSeconds;
  for (const p of parts) {
    const e = at + (span * p.length) / total;
    words.push({ w: p, s: roundTime(at), e: roundTime(e) });
    at = e;
  }
  return words;
}

/**
 * Puts words in time order with start ≤ end and starts never going back,
 * which engines do not all promise (whisper's timestamps can overlap).
 */
export function orderWords(words: readonly AsrWord[]): AsrWord[] {
  const sorted = words
    .filter((x) => Number.isFinite(x.s) && Number.isFinite(x.e) && !isFillerToken(x.w))
    .map((x, i) => ({ x, i }))
    .sort((a, b) => a.x.s - b.x.s || a.i - b.i);
  const out: AsrWord[] = [];
  let lastStart = 0;
  for (const { x } of sorted) {
    const s = roundTime(Math.max(x.s, lastStart, 0));
    out.push({ w: x.w.trim(), s, e: roundTime(Math.max(x.e, s)) });
    lastStart = s;
  }
  return out;
}

/** The transcript text of a word list. */
export function wordsText(words: readonly AsrWord[]): string {
  return words.map((x) => x.w).join(' ');
}
