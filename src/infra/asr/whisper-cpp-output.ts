import type { AsrWord } from './asr-engine.js';
import { isFillerToken, roundTime, spreadWords } from './asr-words.js';

interface Span {
  from?: unknown;
  to?: unknown;
}

interface Token {
  text?: unknown;
  offsets?: Span;
}

interface Segment {
  offsets?: Span;
  text?: unknown;
  tokens?: unknown;
}

interface WhisperCppJson {
  result?: { language?: unknown };
  params?: { language?: unknown };
  transcription?: unknown;
}

export interface WhisperCppParsed {
  words: AsrWord[];
  /** Language whisper used or detected (`result.language`), if stated. */
  language?: string;
  /** Some segment had several words and no token times: its words were spread over it. */
  wordTimesEstimated: boolean;
}

/**
 * Parses the JSON file whisper.cpp writes with `-oj` (`--output-json`):
 * `transcription[]` segments with `offsets.from`/`offsets.to` in
 * milliseconds and `text`; with `-ojf` each segment also lists `tokens[]`
 * with their own offsets. Words come from tokens when present (a token
 * starting with a space starts a word), otherwise from segments: one word
 * each when run with `-ml 1 -sow`, longer segments spread by length.
 */
export function parseWhisperCppJson(json: string): WhisperCppParsed {
  const doc = parseLenient(json) as WhisperCppJson;
  const segments = Array.isArray(doc.transcription) ? (doc.transcription as Segment[]) : [];
  const words: AsrWord[] = [];
  let estimated = false;
  for (const segment of segments) {
    const span = seconds(segment.offsets);
    if (!span) continue;
    const fromTokens = Array.isArray(segment.tokens) ? tokenWords(segment.tokens as Token[], span) : null;
    if (fromTokens) {
      words.push(...fromTokens);
    } else if (typeof segment.text === 'string') {
      const spread = spreadWords(segment.text, span.s, span.e);
      estimated ||= spread.length > 1;
      words.push(...spread);
    }
  }
  const language = doc.result?.language ?? doc.params?.language;
  return { words, language: typeof language === 'string' && language !== 'auto' ? language : undefined, wordTimesEstimated: estimated };
}

function tokenWords(tokens: readonly Token[], segment: { s: number; e: number }): AsrWord[] | null {
  const words: AsrWord[] = [];
  for (const token of tokens) {
    if (typeof token.text !== 'string' || isFillerToken(token.text)) continue;
    const span = seconds(token.offsets) ?? segment;
    const last = words[words.length - 1];
    if (last && !/^\s/.test(token.text)) {
      // A continuation piece of the same word ("Amer" + "icans", or a comma).
      last.w += token.text;
      last.e = Math.max(last.e, span.e);
    } else if (token.text.trim()) {
      words.push({ w: token.text.trim(), s: span.s, e: span.e });
    }
  }
  return words.length > 0 ? words : null;
}

function seconds(span: Span | undefined): { s: number; e: number } | null {
  if (!span || typeof span.from !== 'number' || typeof span.to !== 'number') return null;
  return { s: roundTime(span.from / 1000), e: roundTime(span.to / 1000) };
}

/**
 * whisper.cpp escapes only quotes and backslashes in strings, so a control
 * character inside a token makes its file invalid JSON; those are escaped
 * before giving up.
 */
function parseLenient(json: string): unknown {
  try {
    return JSON.parse(json);
  } catch {
    const repaired = json.replace(/"(?:[^"\\]|\\.)*"/gs, (str) =>
      str.replace(/[\u0000-\u001f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    );
    return JSON.parse(repaired);
  }
}
