import type { TranscriptDoc } from '../../src/core/transcripts/formats/transcript-doc.js';

const lines: [string, string][] = [
  ['Dana', 'Welcome back to the show. Today we are talking about how people get to work.'],
  ['Marcus', 'I sold my car last spring, and honestly I do not miss it at all.'],
  ['Dana', 'So how do you get around now?'],
  ['Marcus', 'Mostly by bike. The new protected lane on the high street changed everything.'],
  ['Dana', 'Our guest Siobhan Kearney plans bus routes for the city council.'],
  ['Siobhan', 'Frequency matters more than anything else. Every ten minutes is the magic number.'],
  ['Marcus', 'The weather has been awful all week, rain every single morning.'],
  ['Siobhan', 'Even so, the bicycle counts on the river bridge went up again this month.'],
  ['Dana', 'That is all for today. Thanks for listening.'],
];

/**
 * A short timed episode: word starts every 0.37 s, so times are fractional
 * and listen links must round them down.
 */
export function commuteDoc(): TranscriptDoc {
  let clock = 3.2;
  const segments = lines.map(([speaker, text]) => {
    const words = text.split(' ').map((w, i) => ({ w, s: Math.round((clock + i * 0.37) * 1000) / 1000 }));
    const start = words[0]!.s;
    const end = Math.round((clock + words.length * 0.37) * 1000) / 1000;
    clock = end + 1.5;
    return { start, end, text, speaker, words };
  });
  return { language: 'en', wordTimesEstimated: false, segments };
}

/** The same talk as a plain-text source is stored: no timing anywhere (every time 0). */
export function untimedDoc(): TranscriptDoc {
  return {
    language: 'en',
    wordTimesEstimated: true,
    segments: lines.map(([speaker, text]) => ({ start: 0, end: 0, text, speaker, words: text.split(' ').map((w) => ({ w, s: 0 })) })),
  };
}

/** The text every quote must be a substring of: segment texts joined by single spaces. */
export function docText(doc: TranscriptDoc): string {
  return doc.segments.map((s) => s.text).join(' ');
}
