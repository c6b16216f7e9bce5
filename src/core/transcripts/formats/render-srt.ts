import { layoutCues } from './cue-layout.js';
import { formatClock } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';

/**
 * Renders SubRip (`format=srt`): numbered cues `HH:MM:SS,mmm --> HH:MM:SS,mmm`
 * of at most two 42-character lines, the first cue of each speaker turn
 * starting `Name: ` (the convention our SRT parser and Buzzsprout share).
 * An empty document gives `''`.
 */
export function renderSrt(doc: TranscriptDoc): string {
  return layoutCues(doc, { labelTurns: true })
    .map((cue, i) => {
      // "-->" inside text would read as a timing line.
      const lines = cue.lines.map((l) => l.replaceAll('-->', '->'));
      return `${i + 1}\n${formatClock(cue.start, ',')} --> ${formatClock(cue.end, ',')}\n${lines.join('\n')}\n`;
    })
    .join('\n');
}
