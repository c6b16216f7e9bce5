import { describe, expect, it } from 'vitest';
import { buildDoc } from './build-doc.js';
import { isUntimed } from './transcript-doc.js';
import { estimateWords, splitWords } from './word-timing.js';

describe('estimateWords', () => {
  it('shares the duration out by word length, space included', () => {
    expect(estimateWords('I am here', 0, 1)).toEqual([
      { w: 'I', s: 0 },
      { w: 'am', s: 0.2 },
      { w: 'here', s: 0.5 },
    ]);
  });

  it('puts every word at the start of a zero-length segment', () => {
    expect(estimateWords('a b', 5, 5)).toEqual([
      { w: 'a', s: 5 },
      { w: 'b', s: 5 },
    ]);
  });

  it('gives no words for blank text', () => {
    expect(estimateWords('  ', 0, 1)).toEqual([]);
    expect(splitWords(' a \n b\t')).toEqual(['a', 'b']);
  });
});

describe('buildDoc', () => {
  it('drops control characters and replaces half a surrogate pair in text, speakers and words', () => {
    const doc = buildDoc([
      { start: 0, end: 1, text: 'Hel\u0000lo\u0007 \ud83d there \u{1F600}', speaker: 'A\u0000na', words: [{ w: '\u0000', s: 0 }, { w: 'Hel\u0000lo', s: 0.1 }] },
      { start: 1, end: 2, text: '\u0000\u001b' },
    ]);
    expect(doc.segments).toMatchObject([{ text: 'Hello \ufffd there \u{1F600}', speaker: 'Ana', words: [{ w: 'Hello', s: 0.1 }] }]);
    // Stored as jsonb, which refuses \u0000 and lone surrogates.
    expect(JSON.stringify(doc)).not.toMatch(/\\u0000|\\ud83d"/);
  });

  it('sorts segments by start, keeping source order for equal starts', () => {
    const doc = buildDoc([
      { start: 5, end: 6, text: 'third' },
      { start: 1, end: 2, text: 'first' },
      { start: 1, end: 3, text: 'second' },
    ]);
    expect(doc.segments.map((s) => s.text)).toEqual(['first', 'second', 'third']);
  });

  it('rounds to milliseconds, clamps negatives and pulls an early end up to the start', () => {
    const doc = buildDoc([
      { start: -1, end: 0.12345, text: 'a' },
      { start: 4, end: 3, text: 'b' },
    ]);
    expect(doc.segments.map((s) => [s.start, s.end])).toEqual([
      [0, 0.123],
      [4, 4],
    ]);
  });

  it('drops blank segments, collapses whitespace and nulls blank speakers', () => {
    const doc = buildDoc([
      { start: 0, end: 1, text: '  \n ' },
      { start: 1, end: 2, text: ' hello \n  world ', speaker: '  ' },
    ]);
    expect(doc.segments).toHaveLength(1);
    expect(doc.segments[0]).toMatchObject({ text: 'hello world', speaker: null });
  });

  it('keeps real word times, sorted and inside the segment', () => {
    const doc = buildDoc([
      {
        start: 1,
        end: 2,
        text: 'b a c',
        words: [
          { w: 'b', s: 1.5 },
          { w: 'a', s: 0.5 },
          { w: 'c', s: 9 },
        ],
      },
    ]);
    expect(doc.wordTimesEstimated).toBe(false);
    expect(doc.segments[0].words).toEqual([
      { w: 'a', s: 1 },
      { w: 'b', s: 1.5 },
      { w: 'c', s: 2 },
    ]);
  });

  it('flags estimated word times', () => {
    expect(buildDoc([{ start: 0, end: 1, text: 'a b' }]).wordTimesEstimated).toBe(true);
    expect(buildDoc([]).wordTimesEstimated).toBe(false);
  });

  it('recognises an untimed document', () => {
    expect(isUntimed(buildDoc([{ start: 0, end: 0, text: 'a' }]))).toBe(true);
    expect(isUntimed(buildDoc([{ start: 0, end: 1, text: 'a' }]))).toBe(false);
    expect(isUntimed(buildDoc([]))).toBe(false);
  });
});
