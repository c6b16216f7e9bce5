import { buildDoc, checkSegmentCount, type RawSegment } from './build-doc.js';
import { parseClock } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';
import { readVoiceRuns } from './vtt-cue-text.js';

const TIMING = /^\s*(\S+?)\s*-->\s*(\S+)/;
const SKIPPED_BLOCK = /^(?:NOTE|STYLE|REGION)(?:[ \t]|$)/;

/**
 * Parses WebVTT (`text/vtt`). Each cue becomes a segment; `<v Name>` voice
 * tags give the speaker, other tags are dropped, character references are
 * decoded, cue settings are ignored and NOTE/STYLE/REGION blocks skipped.
 * Hours may be a single digit (`0:00:15.410`, common in the wild). A cue
 * holding several voices is split into one segment per voice, its time shared
 * out by text length. A `Language:` header line sets the document language.
 * Expects `\n` line ends.
 *
 * A cue whose timing line cannot be read is left out.
 *
 * @throws TranscriptParseError when the `WEBVTT` signature is missing, or
 * when timing lines were found but none could be read.
 */
export function parseVtt(text: string): TranscriptDoc {
  const lines = text.split('\n');
  if (!/^WEBVTT(?:[ \t]|$)/.test(lines[0])) {
    throw new TranscriptParseError('missing the "WEBVTT" signature on the first line', 'WebVTT', 1);
  }
  let language: string | null = null;
  let i = 1;
  // A timing line ends the header too: files that leave out the blank line
  // after it would otherwise lose their first cue (players drop it; we keep what was said).
  for (; i < lines.length && lines[i].trim() !== '' && !lines[i].includes('-->'); i++) {
    const meta = /^Language:\s*(\S+)/i.exec(lines[i]);
    if (meta) language = meta[1];
  }

  const cues: { start: number; end: number; text: string[] }[] = [];
  let current: (typeof cues)[number] | null = null;
  let skipping = false;
  let unreadable: TranscriptParseError | null = null;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '') {
      current = null;
      skipping = false;
      continue;
    }
    if (skipping) continue;
    const times = line.includes('-->') ? readTiming(line) : null;
    if (times) {
      current = { ...times, text: [] };
      checkSegmentCount(cues.push(current));
    } else if (current) {
      // Inside a cue's text, an unreadable "-->" line is words ("A-->B"). The parsing
      // rules would end the cue there and drop the rest of its block; we keep them.
      current.text.push(line);
    } else if (line.includes('-->')) {
      // A cue whose timing line cannot be read is skipped, as players do; the others stand.
      unreadable ??= new TranscriptParseError(`cannot read the cue times "${line.trim()}"`, 'WebVTT', i + 1);
      skipping = true;
    } else if (!(lines[i + 1] ?? '').includes('-->') || SKIPPED_BLOCK.test(line)) {
      // Not a cue identifier: a comment, style, region or stray block.
      skipping = true;
    }
  }
  if (cues.length === 0 && unreadable) throw unreadable;

  const raw: RawSegment[] = [];
  for (const cue of cues) {
    const runs = readVoiceRuns(cue.text.join('\n'));
    const total = runs.reduce((n, r) => n + r.text.length, 0);
    let at = cue.start;
    for (const run of runs) {
      const end = runs.length === 1 ? cue.end : at + ((cue.end - cue.start) * run.text.length) / total;
      raw.push({ start: at, end, text: run.text, speaker: run.speaker });
      at = end;
    }
  }
  return buildDoc(raw, language);
}

function readTiming(line: string): { start: number; end: number } | null {
  const m = TIMING.exec(line);
  const start = m ? parseClock(m[1]) : null;
  const end = m ? parseClock(m[2]) : null;
  return start === null || end === null ? null : { start, end };
}
