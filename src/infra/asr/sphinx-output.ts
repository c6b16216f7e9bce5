import type { AsrWord } from './asr-engine.js';
import { isFillerToken, roundTime } from './asr-words.js';

/** `word(2)` names the second pronunciation of `word` in the dictionary. */
function dictionaryWord(token: string): string {
  return token.replace(/\(\d+\)$/, '');
}

const TIMED_WORD = /^(\S+) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?) (-?\d+(?:\.\d+)?)$/;

/** The words of `readContinuousOutput`, and how far back each reported time was moved. */
export interface ContinuousOutput {
  words: AsrWord[];
  /**
   * The shift of the utterance a reported time falls in (0 outside every
   * utterance): a keyword-spotting pass over the same audio and front end
   * reports the same late times, and its detections must move with the words.
   */
  shiftAt(reported: number): number;
}

/**
 * Parses `pocketsphinx_continuous -time yes` output (pocketsphinx
 * 5prealpha, as Debian 12 ships it): for each utterance the hypothesis on
 * one line, then one `word start end probability` line per word, times in
 * seconds from the start of the file.
 *
 * That decoder sometimes reports an utterance's times too late, by up to its
 * own length: it then ends after the next utterance starts, or after the
 * audio ends (`audioSeconds`), which no real utterance does. Such an
 * utterance is moved back until it no longer does, so its words are neither
 * late nor sorted in among the next utterance's.
 */
export function readContinuousOutput(stdout: string, audioSeconds?: number): ContinuousOutput {
  const utterances: { start: number; end: number; words: AsrWord[] }[] = [];
  for (const line of stdout.split(/\r?\n/)) {
    const m = TIMED_WORD.exec(line.trim());
    if (!m) continue;
    const token = m[1];
    const s = Number(m[2]);
    const e = Number(m[3]);
    if (token === '<s>' || utterances.length === 0) utterances.push({ start: s, end: e, words: [] });
    const current = utterances[utterances.length - 1]!;
    current.end = Math.max(current.end, e);
    const w = dictionaryWord(token);
    if (isFillerToken(w)) continue;
    current.words.push({ w, s, e });
  }
  const words: AsrWord[] = [];
  const shifts: { start: number; end: number; shift: number }[] = [];
  let previousEnd = 0;
  utterances.forEach((u, i) => {
    const limit = i + 1 < utterances.length ? utterances[i + 1]!.start : audioSeconds;
    // Moved back by its overrun, never before the utterance before it.
    const shift = limit !== undefined && u.end > limit + 0.05 ? Math.min(u.end - limit, Math.max(0, u.start - previousEnd)) : 0;
    for (const x of u.words) words.push({ w: x.w, s: roundTime(x.s - shift), e: roundTime(x.e - shift) });
    if (shift > 0) shifts.push({ start: u.start, end: u.end, shift });
    previousEnd = u.end - shift;
  });
  return { words, shiftAt: (t) => shifts.find((u) => u.start <= t && t <= u.end)?.shift ?? 0 };
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
