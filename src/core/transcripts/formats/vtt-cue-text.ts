import { decodeCharacterReferences } from './character-references.js';

/** A run of cue text spoken by one voice (null outside any `<v>` span). */
export interface VoiceRun {
  speaker: string | null;
  text: string;
}

/**
 * Splits WebVTT cue text into voice runs: `<v Name>` (or `<v.class Name>`)
 * opens a voice, `</v>` closes it, and every other tag (`<c>`, `<i>`, `<b>`,
 * `<u>`, `<ruby>`, `<lang>`, inline timestamps) is dropped. Adjacent runs of
 * the same voice are merged; runs with only whitespace are dropped.
 */
export function readVoiceRuns(cueText: string): VoiceRun[] {
  const pieces: VoiceRun[] = [];
  let speaker: string | null = null;
  let from = 0;
  // Tags are bounded so a stray "<" costs at most 500 characters of look-ahead.
  for (const m of cueText.matchAll(/<([^<>]{0,500})>/g)) {
    if (m.index > from) pieces.push({ speaker, text: decodeCharacterReferences(cueText.slice(from, m.index)) });
    from = m.index + m[0].length;
    const tag = m[1];
    if (/^v[.\s]/.test(tag)) {
      speaker = decodeCharacterReferences(tag.replace(/^v(?:\.\S*)?\s*/, '')).trim() || null;
    } else if (tag === '/v') {
      speaker = null;
    }
  }
  if (from < cueText.length) pieces.push({ speaker, text: decodeCharacterReferences(cueText.slice(from)) });
  const runs: VoiceRun[] = [];
  for (const piece of pieces) {
    const last = runs[runs.length - 1];
    if (last && last.speaker === piece.speaker) last.text += piece.text;
    else if (piece.text.trim() === '') {
      // A blank run between two voices still separates words if the voice resumes.
      if (last) last.text += ' ';
    } else runs.push({ ...piece });
  }
  return runs.map((r) => ({ speaker: r.speaker, text: r.text.replace(/\s+/g, ' ').trim() }));
}
