import { buildDoc, checkSegmentCount, type RawSegment } from './build-doc.js';
import { takeSpeakerPrefix } from './speaker-prefix.js';
import { parseClock } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';

const TIMING = /^\s*(\S+)\s*-->\s*(\S+)/;
// Only the formatting tags players honour in SRT, so a literal "<laughs>" survives.
const SRT_TAGS = /<\/?(?:i|b|u|s|font)(?:\s[^>]*)?>/gi;
const ASS_OVERRIDES = /\{\\[^}]*\}/g;

/**
 * Parses SubRip (`application/srt`, `application/x-subrip`). Each cue becomes
 * one segment, its lines joined by spaces. A `Name:` label at the start of a
 * cue sets the speaker for that cue and the following ones until the next
 * label (Buzzsprout labels only the first cue of each turn); with no labels
 * at all speakers stay null. Expects `\n` line ends.
 *
 * @throws TranscriptParseError on a timing line whose times cannot be read,
 * or when no cue is found in non-blank input.
 */
export function parseSrt(text: string): TranscriptDoc {
  const lines = text.split('\n');
  const cues: { start: number; end: number; text: string[] }[] = [];
  let current: (typeof cues)[number] | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const timing = line.includes('-->') ? TIMING.exec(line) : null;
    if (timing) {
      const start = parseClock(timing[1]);
      const end = parseClock(timing[2]);
      if (start === null || end === null) {
        throw new TranscriptParseError(`cannot read the cue times "${line}"`, 'SRT', i + 1);
      }
      current = { start, end, text: [] };
      checkSegmentCount(cues.push(current));
      continue;
    }
    // A cue number is the line right before a timing line; any other number is text.
    if (/^\d+$/.test(line) && TIMING.test(lines[i + 1] ?? '')) continue;
    // Blank lines end a cue, but stray text after one still belongs to it.
    if (line !== '' && current) current.text.push(line);
  }
  if (cues.length === 0 && text.trim() !== '') {
    throw new TranscriptParseError('no cues found (expected "00:00:01,000 --> 00:00:02,000" lines)', 'SRT');
  }

  let speaker: string | null = null;
  const raw: RawSegment[] = cues.map((cue) => {
    let body = cue.text.join(' ').replace(SRT_TAGS, '').replace(ASS_OVERRIDES, '').trim();
    const label = takeSpeakerPrefix(body);
    if (label) {
      speaker = label.speaker;
      body = label.rest;
    }
    return { start: cue.start, end: cue.end, text: body, speaker };
  });
  return buildDoc(raw);
}
