import { toParagraphs } from './paragraphs.js';
import type { TranscriptDoc } from './transcript-doc.js';

/**
 * Renders plain text (`format=text`/`txt`): one paragraph per speaker turn,
 * written `Speaker: text` when the speaker is known, with a blank line
 * between paragraphs and a final newline. An empty document gives `''`.
 *
 * @example renderText(doc) // 'Sarah: In today\'s episode…\n\nGillian: Hi Buzzsprout…\n'
 */
export function renderText(doc: TranscriptDoc): string {
  const paragraphs = toParagraphs(doc).map((p) => (p.speaker ? `${p.speaker}: ${p.text}` : p.text));
  return paragraphs.length === 0 ? '' : `${paragraphs.join('\n\n')}\n`;
}
