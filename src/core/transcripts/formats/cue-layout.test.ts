import { describe, expect, it } from 'vitest';
import { buildDoc, type RawSegment } from './build-doc.js';
import { layoutCues, MAX_CUE_LINES, MAX_LINE_CHARS, wrapLines } from './cue-layout.js';
import { roundMs } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';

const LONG =
  'So in this special bonus podcast episode, we went back through the archives of the podcasting Q and a show, ' +
  'and five minute Mondays to pull together the ten things we wish we knew before starting our very first podcast.';

const doc = (...segments: RawSegment[]) => buildDoc(segments);

describe('wrapLines', () => {
  it('keeps short text on one line and balances two', () => {
    expect(wrapLines('a short line'.split(' '))).toEqual(['a short line']);
    expect(wrapLines('In today’s episode, you’ll learn whether or not you'.split(' '))).toEqual([
      'In today’s episode, you’ll',
      'learn whether or not you',
    ]);
  });

  it('returns null past two lines, but gives an overlong word its own line', () => {
    expect(wrapLines(LONG.split(' '))).toBeNull();
    const url = `https://example.com/${'x'.repeat(60)}`;
    expect(wrapLines([url])).toEqual([url]);
  });
});

describe('layoutCues', () => {
  it('splits a long segment into even cues timed by its words', () => {
    const d = doc({ start: 10, end: 40, text: LONG, speaker: 'Travis' });
    const cues = layoutCues(d, { labelTurns: true });
    expect(cues.length).toBeGreaterThan(1);
    for (const cue of cues) {
      expect(cue.lines.length).toBeLessThanOrEqual(MAX_CUE_LINES);
      for (const line of cue.lines) expect(line.length).toBeLessThanOrEqual(MAX_LINE_CHARS);
      expect(cue.end).toBeGreaterThan(cue.start);
    }
    expect(cues[0].start).toBe(10);
    expect(cues.at(-1)!.end).toBe(40);
    for (let i = 1; i < cues.length; i++) {
      expect(cues[i].start).toBe(cues[i - 1].end);
      const firstWord = cues[i].lines[0].split(' ')[0];
      const word = d.segments[0].words.find((w) => w.s === cues[i].start);
      expect(word?.w).toBe(firstWord);
    }
    expect(cues[0].lines[0]).toMatch(/^Travis: /);
    expect(cues.slice(1).every((c) => !c.lines[0].startsWith('Travis:'))).toBe(true);
    expect(cues.flatMap((c) => c.lines).join(' ')).toBe(`Travis: ${LONG}`);
    const sizes = cues.map((c) => c.lines.join(' ').length);
    expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThan(40);
  });

  it('labels only the first cue of each turn, and only when asked', () => {
    const d = doc(
      { start: 0, end: 1, text: 'Hi.', speaker: 'A' },
      { start: 1, end: 2, text: 'Again.', speaker: 'A' },
      { start: 2, end: 3, text: 'Hello.', speaker: 'B' },
      { start: 3, end: 4, text: 'Back.', speaker: 'A' },
    );
    expect(layoutCues(d, { labelTurns: true }).map((c) => c.lines[0])).toEqual(['A: Hi.', 'Again.', 'B: Hello.', 'A: Back.']);
    expect(layoutCues(d, { labelTurns: false }).map((c) => c.lines[0])).toEqual(['Hi.', 'Again.', 'Hello.', 'Back.']);
  });

  it('gives zero-length segments a reading time, cut short by the next cue', () => {
    const d = doc(
      { start: 5, end: 5, text: 'instant' },
      { start: 5.5, end: 6, text: 'next' },
      { start: 9, end: 9, text: 'a zero-length line at the very end of this transcript' },
    );
    // The last cue's 53 characters at 15 a second.
    expect(layoutCues(d, { labelTurns: false }).map((c) => [c.start, c.end])).toEqual([
      [5, 5.5],
      [5.5, 6],
      [9, 12.533],
    ]);
  });

  it('shows the cues of a long zero-length segment one after another, not all at once', () => {
    const d = doc({ start: 5, end: 5, text: LONG, speaker: 'Travis' }, { start: 30, end: 31, text: 'next' });
    const cues = layoutCues(d, { labelTurns: true });
    expect(cues.length).toBeGreaterThan(2);
    expect(cues[0].start).toBe(5);
    for (let i = 1; i < cues.length; i++) expect(cues[i].start, `cue ${i}`).toBeGreaterThanOrEqual(cues[i - 1].end);
    // Its reading time (217 characters at 15 a second), before the next segment.
    expect(cues.at(-2)!.end).toBe(roundMs(5 + LONG.length / 15));
    expect(cues.at(-1)).toMatchObject({ start: 30, end: 31 });
  });

  it('sorts cues when segments overlap or arrive out of order', () => {
    const d: TranscriptDoc = {
      language: null,
      wordTimesEstimated: true,
      segments: [
        { start: 20, end: 21, text: 'late', speaker: null, words: [{ w: 'late', s: 20 }] },
        ...doc({ start: 0, end: 30, text: LONG }).segments,
      ],
    };
    const starts = layoutCues(d, { labelTurns: false }).map((c) => c.start);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });

  it('shows the segment text even when its words differ from it', () => {
    const d: TranscriptDoc = {
      language: null,
      wordTimesEstimated: false,
      segments: [{ start: 0, end: 2, text: 'Hello, world!', speaker: null, words: [{ w: 'hello', s: 0.5 }] }],
    };
    expect(layoutCues(d, { labelTurns: false })).toEqual([{ start: 0, end: 2, speaker: null, lines: ['Hello, world!'] }]);
  });

  it('gives an empty document no cues', () => {
    expect(layoutCues(doc(), { labelTurns: true })).toEqual([]);
  });
});
