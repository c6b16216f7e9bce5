import { layoutCues } from './cue-layout.js';
import { formatClock } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';

const escapeText = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/**
 * Renders WebVTT (`format=vtt`): the `WEBVTT` signature, then cues
 * `HH:MM:SS.mmm --> HH:MM:SS.mmm` of at most two 42-character lines, each
 * opened with `<v Speaker>` when the speaker is known. `&`, `<` and `>` are
 * escaped in text and voice names (which also defuses a literal `-->`).
 * An empty document gives just the signature.
 */
export function renderVtt(doc: TranscriptDoc): string {
  const cues = layoutCues(doc, { labelTurns: false }).map((cue) => {
    const voice = cue.speaker === null ? '' : `<v ${escapeText(cue.speaker)}>`;
    const text = cue.lines.map(escapeText).join('\n');
    return `${formatClock(cue.start, '.')} --> ${formatClock(cue.end, '.')}\n${voice}${text}\n`;
  });
  return ['WEBVTT\n', ...cues].join('\n');
}
