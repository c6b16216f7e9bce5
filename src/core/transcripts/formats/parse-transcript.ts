import { charsetOf, decodeText } from '../../decode-text.js';
import { MAX_TRANSCRIPT_WORDS } from './build-doc.js';
import { parseHtmlTranscript } from './parse-html-transcript.js';
import { parseJsonTranscript } from './parse-json-transcript.js';
import { parsePlainText } from './parse-plain-text.js';
import { parseSrt } from './parse-srt.js';
import { parseVtt } from './parse-vtt.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';

/** Largest transcript body accepted, in bytes (UTF-8 for strings). Default: 20 MiB. */
export const MAX_TRANSCRIPT_BYTES = 20 * 1024 * 1024;

/** The source formats we read. */
export type SourceFormat = 'srt' | 'vtt' | 'json' | 'html' | 'text';

const PARSERS: Record<SourceFormat, (text: string) => TranscriptDoc> = {
  srt: parseSrt,
  vtt: parseVtt,
  json: parseJsonTranscript,
  html: parseHtmlTranscript,
  text: parsePlainText,
};

const MIME_FORMATS: Record<string, SourceFormat> = {
  'application/srt': 'srt',
  'application/x-subrip': 'srt',
  'application/x-srt': 'srt',
  'text/srt': 'srt',
  'text/x-srt': 'srt',
  'text/vtt': 'vtt',
  'text/x-vtt': 'vtt',
  'application/json': 'json',
  'text/json': 'json',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'text/plain': 'text',
};

/**
 * Reads a publisher transcript (the target of `<podcast:transcript>`) into a
 * {@link TranscriptDoc}, choosing the parser by MIME type (its parameters
 * ignored). An unknown type is sniffed from the content (`WEBVTT`
 * signature, SRT timing line, JSON, HTML, else plain text). Publishers often
 * mislabel subtitles, so a body starting with `WEBVTT` is always read as
 * WebVTT and `text/plain` that starts like SRT is read as SRT. When the
 * declared parser rejects the body and the content looks like another
 * format, that format is tried before giving up.
 *
 * Buffers are decoded by {@link decodeText}: a byte order mark wins, then
 * `charset` (by default the `charset` parameter of `mimeType`), then UTF-8.
 *
 * @throws TranscriptParseError on empty or oversized input (over
 * {@link MAX_TRANSCRIPT_BYTES} or `MAX_TRANSCRIPT_WORDS`) or input the chosen
 * parser cannot read.
 * @example parseTranscript(body, 'text/vtt; charset=utf-8').segments[0].speaker
 */
export function parseTranscript(body: string | Buffer, mimeType: string, charset = charsetOf(mimeType)): TranscriptDoc {
  const size = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  if (size > MAX_TRANSCRIPT_BYTES) {
    throw new TranscriptParseError(`body is ${size} bytes, over the ${MAX_TRANSCRIPT_BYTES} byte limit`, 'transcript');
  }
  const text = (typeof body === 'string' ? body.replace(/^\uFEFF/, '') : decodeText(body, charset)).replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw new TranscriptParseError('body is empty', 'transcript');
  // A cheap count up front, so a body of millions of tiny words fails before
  // any parser builds objects for them. Cue numbers and times count too: a
  // cue per word (number, start, arrow, end, word) is five tokens a word.
  if (countTokens(text, 5 * MAX_TRANSCRIPT_WORDS) > 5 * MAX_TRANSCRIPT_WORDS) {
    throw new TranscriptParseError(`more than ${MAX_TRANSCRIPT_WORDS} words`, 'transcript');
  }

  const declared = MIME_FORMATS[mimeType.split(';')[0].trim().toLowerCase()];
  const sniffed = sniffFormat(text);
  // A WEBVTT signature is unambiguous, and SRT read as SRT beats a generic label.
  const format =
    declared === undefined || sniffed === 'vtt' || (declared === 'text' && sniffed === 'srt') ? sniffed : declared;
  try {
    return PARSERS[format](text);
  } catch (err) {
    if (!(err instanceof TranscriptParseError) || sniffed === format || sniffed === 'text') throw err;
    try {
      return PARSERS[sniffed](text);
    } catch {
      throw err;
    }
  }
}

/**
 * Guesses a transcript's format from its first characters. Returns `text`
 * when nothing more specific matches.
 */
export function sniffFormat(text: string): SourceFormat {
  const head = text.slice(0, 2048).replace(/^\uFEFF/, '').trimStart();
  if (/^WEBVTT(?:[ \t\r\n]|$)/.test(head)) return 'vtt';
  // Hours are often left out (`01:02,500 --> …`), as the SRT parser allows.
  if (/^(?:\d+[ \t]*\r?\n)?[ \t]*(?:\d{1,6}:)?\d{1,2}:\d{2}[,.]\d{1,9}[ \t]*-->/.test(head)) return 'srt';
  if (/^[[{]/.test(head)) return 'json';
  if (/^</.test(head)) return 'html';
  return 'text';
}

/** Counts whitespace-separated tokens, stopping once past `limit`. */
function countTokens(text: string, limit: number): number {
  let count = 0;
  let inToken = false;
  for (let i = 0; i < text.length && count <= limit; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inToken) count++;
    inToken = !space;
  }
  return count;
}
