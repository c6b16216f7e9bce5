import { describe, expect, it } from 'vitest';
import { asrDoc } from './asr-doc.js';

describe('asrDoc', () => {
  it('splits at pauses and keeps word starts', () => {
    const doc = asrDoc(
      [
        { w: 'the', s: 0.1, e: 0.3 },
        { w: 'weather', s: 0.35, e: 0.8 },
        { w: 'my', s: 2.0, e: 2.2 },
        { w: 'father', s: 2.25, e: 2.7 },
      ],
      'en',
    );
    expect(doc.segments.map((s) => [s.start, s.end, s.text])).toEqual([
      [0.1, 0.8, 'the weather'],
      [2, 2.7, 'my father'],
    ]);
    expect(doc.segments[1]!.words).toEqual([{ w: 'my', s: 2 }, { w: 'father', s: 2.25 }]);
    expect(doc.wordTimesEstimated).toBe(false);
    expect(doc.language).toBe('en');
  });

  it('no words: an empty document', () => {
    expect(asrDoc([], null).segments).toEqual([]);
  });
});
