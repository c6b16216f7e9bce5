import { decodeCharacterReferences } from './character-references.js';
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
 * at all speakers stay null. Character references that HTML-minded tools
 * write (`&amp;`, `&#39;`) are decoded. Expects `\n` line ends.
 *
 * A cue whose timing line cannot be read is left out.
 *
 * @throws TranscriptParseError when no cue can be read in non-blank input.
 */
export function parseSrt(text: string): TranscriptDoc {
  const lines = text.split('\n');
  const cues: { start: number; end: number; text: string[] }[] = [];
  let current: (typeof cues)[number] | null = null;
  let unreadable: TranscriptParseError | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    const timing = line.includes('-->') ? TIMING.exec(line) : null;
    const start = timing ? parseClock(timing[1]) : null;
    const end = timing ? parseClock(timing[2]) : null;
    if (start !== null && end !== null) {
      current = { start, end, text: [] };
      checkSegmentCount(cues.push(current));
      continue;
    }
    const before = (lines[i - 1] ?? '').trim();
    if (timing && (current === null || before === '' || /^\d+$/.test(before))) {
      // A cue whose timing line cannot be read is skipped with its text, as players do;
      // the others stand. Inside a cue's text such a line ("A-->B") is words.
      unreadable ??= new TranscriptParseError(`cannot read the cue times "${line}"`, 'SRT', i + 1);
      current = null;
      continue;
    }
    // A cue number is the line right before a timing line; any other number is text.
    if (/^\d+$/.test(line) && TIMING.test(lines[i + 1] ?? '')) continue;
    // Blank lines end a cue, but stray text after one still belongs to it.
    if (line !== '' && current) current.text.push(line);
  }
  if (cues.length === 0 && unreadable) throw unreadable;
  if (cues.length === 0 && text.trim() !== '') {
    throw new TranscriptParseError('no cues found (expected "00:00:01,000 --> 00:00:02,000" lines)', 'SRT');
  }

  let speaker: string | null = null;
  const raw: RawSegment[] = cues.map((cue) => {
    // References are decoded after the tags go, so a written "&lt;laughs&gt;" stays words.
    let body = decodeCharacterReferences(cue.text.join(' ').replace(SRT_TAGS, '').replace(ASS_OVERRIDES, '')).trim();
    const label = takeSpeakerPrefix(body);
    if (label) {
      speaker = label.speaker;
      body = label.rest;
    }
    return { start: cue.start, end: cue.end, text: body, speaker };
  });
  return buildDoc(raw);
}
