import { describe, expect, it } from 'vitest';
import { isFillerToken, orderWords, spreadWords, wordsText } from './asr-words.js';

describe('asr words', () => {
  it('knows the fillers engines emit', () => {
    for (const t of ['<s>', '</s>', '<sil>', '[NOISE]', '[SPEECH]', '++BREATH++', '(NULL)', '[_BEG_]', '[_TT_150]', '<|endoftext|>', '[BLANK_AUDIO]', ' ']) {
      expect(isFillerToken(t), t).toBe(true);
    }
    for (const t of ['the', "don't", 'warm,', 'C++', '[1]x']) expect(isFillerToken(t), t).toBe(false);
  });

  it('orders words, keeps starts from going back and ends before starts', () => {
    const words = orderWords([
      { w: 'b', s: 1.2, e: 1.5 },
      { w: 'a', s: 0.5, e: 1.3 },
      { w: '<sil>', s: 1.5, e: 1.6 },
      { w: 'c', s: 1.9, e: 1.8 },
      { w: 'd', s: Number.NaN, e: 2 },
    ]);
    expect(words).toEqual([
      { w: 'a', s: 0.5, e: 1.3 },
      { w: 'b', s: 1.2, e: 1.5 },
      { w: 'c', s: 1.9, e: 1.9 },
    ]);
    expect(wordsText(words)).toBe('a b c');
  });

  it('spreads a phrase over its span by word length', () => {
    expect(spreadWords(' one three [Music] ', 10, 18)).toEqual([
      { w: 'one', s: 10, e: 13 },
      { w: 'three', s: 13, e: 18 },
    ]);
    expect(spreadWords('', 0, 1)).toEqual([]);
  });
});
