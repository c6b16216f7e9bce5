import { describe, expect, it } from 'vitest';
import { parsePlainText } from './parse-plain-text.js';
import { isUntimed } from './transcript-doc.js';

describe('parsePlainText', () => {
  it('makes one untimed segment per paragraph, with labels starting turns', () => {
    const doc = parsePlainText('Ana: Hello there,\nhow are you?\nBen: Fine.\n\nAnd you?\n\n\nNarration without a label follows.');
    expect(isUntimed(doc)).toBe(true);
    expect(doc.wordTimesEstimated).toBe(true);
    expect(doc.segments.map((s) => [s.speaker, s.text])).toEqual([
      ['Ana', 'Hello there, how are you?'],
      ['Ben', 'Fine.'],
      ['Ben', 'And you?'],
      ['Ben', 'Narration without a label follows.'],
    ]);
    expect(doc.segments.flatMap((s) => s.words.map((w) => w.s))).toEqual(Array(13).fill(0));
  });

  it('leaves speakers null when there are no labels', () => {
    expect(parsePlainText('One.\n\nTwo.').segments.map((s) => s.speaker)).toEqual([null, null]);
  });
});
