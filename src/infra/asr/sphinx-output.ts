import type { AsrWord } from './asr-engine.js';
import { isFillerToken, roundTime } from './asr-words.js';

/** `word(2)` names the second pronunciation of `word` in the dictionary. */
function dictionaryWord(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

const TIMED_WORD = /^(\S+) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;

/**
 * Parses `pocketsphinx_continuous -time yes` output (pocketsphinx
 * 5prealpha, as Debian 12 ships it): for each utterance the hypothesis on
 * one line, then one `word start end probability` line per word, times in
 * seconds from the start of the file.
 */
export function parseContinuousOutput(stdout: string): AsrWord[] {
  const words: AsrWord[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = TIMED_WORD.exec(line.trim());
    if (!m) continue;
    const w = dictionaryWord(m[1]);
    if (isFillerToken(w)) continue;
    words.push({ w, s: roundTime(Number(m[2])), e: roundTime(Number(m[3])) });
  }
  return words;
}

interface Ps5Segment {
  t?: unknown;
  b?: unknown;
  d?: unknown;
  w?: unknown;
}

/**
 * Parses the JSON lines of pocketsphinx 5 (`pocketsphinx live|single file.wav`):
 * one object per utterance, `{"b":start,"d":duration,"p":prob,"t":text,
 * "w":[{"b","d","p","t"}, …]}`, times in seconds from the start of the input.
 */
export function parsePocketsphinx5Output(stdout: string): AsrWord[] {
  const words: AsrWord[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    if (!line.trim().startsWith('{')) continue;
    let utterance: Ps5Segment;
    try {
      utterance = JSON.parse(line) as Ps5Segment;
    } catch {
      continue;
    }
    if (!Array.isArray(utterance.w)) continue;
    for (const item of utterance.w as Ps5Segment[]) {
      if (typeof item.t !== 'string' || typeof item.b !== 'number' || typeof item.d !== 'number') continue;
      const w = dictionaryWord(item.t);
      if (isFillerToken(w)) continue;
      words.push({ w, s: roundTime(item.b), e: roundTime(item.b + item.d) });
    }
  }
  return words;
}
