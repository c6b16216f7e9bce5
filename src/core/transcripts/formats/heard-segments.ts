import type { Segment, TranscriptDoc, Word } from './transcript-doc.js';
import { splitWords } from './word-timing.js';

/**
 * The segments as the audio served now plays them, for what is shown in time
 * with it (subtitles): words of stretches cut out of the audio are left out,
 * and a segment is split where an inserted ad or a cut falls between its
 * words, so no cue stays on screen through an ad or across a cut. A document
 * never re-timed is returned as it is.
 */
export function heardSegments(doc: TranscriptDoc): Segment[] {
  if (!doc.alignment) return doc.segments;
  const breaks = doc.alignment.adBreaks;
  /** The ad that starts after `from` and ends by `to`, if one lies between two words. */
  const adBetween = (from: number, to: number) => breaks.find((b) => b.start >= from && b.end <= to);
  const out: Segment[] = [];
  for (const seg of doc.segments) {
    const tokens = splitWords(seg.text);
    if (seg.words.length !== tokens.length) {
      // Words that do not line up with the text: keep the segment unless all of it was cut.
      if (!(seg.words.length > 0 && seg.words.every((w) => w.removed))) out.push(seg);
      continue;
    }
    let run: { tokens: string[]; words: Word[]; start: number } | null = null;
    const flush = (end: number) => {
      if (run) out.push({ start: run.start, end: Math.max(run.start, end), text: run.tokens.join(' '), speaker: seg.speaker, words: run.words });
      run = null;
    };
    tokens.forEach((token, i) => {
      const word = seg.words[i]!;
      if (word.removed) return flush(word.s);
      const last: Word | undefined = run?.words.at(-1);
      const ad = last ? adBetween(last.s, word.s) : undefined;
      if (ad) flush(ad.start);
      // The segment's own start holds for its first word, unless an ad came in between.
      const opening = i === 0 && !adBetween(seg.start, word.s) ? Math.min(seg.start, word.s) : word.s;
      run ??= { tokens: [], words: [], start: opening };
      run.tokens.push(token);
      run.words.push(word);
    });
    const lastWord: Word | undefined = (run as { words: Word[] } | null)?.words.at(-1);
    flush((lastWord && adBetween(lastWord.s, seg.end)?.start) ?? seg.end);
  }
  return out;
}
