import { describe, expect, it } from 'vitest';
import { editDistance, normaliseWords, wordErrorRate } from './word-error-rate.js';

describe('normaliseWords', () => {
  it('ignores case and punctuation, joins contractions, splits hyphenated words', () => {
    expect(normaliseWords("Don't stop — it's COLD-hearted, Mr. Dashwood!")).toEqual([
      'dont', 'stop', 'its', 'cold', 'hearted', 'mr', 'dashwood',
    ]);
  });

  it('keeps letters and digits of other scripts', () => {
    expect(normaliseWords('Café 10 Uhr, straße.')).toEqual(['café', '10', 'uhr', 'straße']);
  });
});

describe('wordErrorRate', () => {
  it('is 0 for the same words however punctuated', () => {
    expect(wordErrorRate('Hello, world.', 'hello world')).toBe(0);
  });

  it('counts a substitution, a deletion and an insertion once each', () => {
    const reference = 'the cat sat on the mat';
    expect(wordErrorRate(reference, 'the dog sat on the mat')).toBeCloseTo(1 / 6);
    expect(wordErrorRate(reference, 'the cat sat on mat')).toBeCloseTo(1 / 6);
    expect(wordErrorRate(reference, 'the cat sat on the red mat')).toBeCloseTo(1 / 6);
  });

  it('matches the documented example: pocketsphinx on a LibriVox line', () => {
    expect(wordErrorRate('He was not an ill-disposed young man.', 'he was not an illness those young man')).toBe(0.25);
  });

  it('can exceed 1 when the hypothesis invents words', () => {
    expect(wordErrorRate('yes', 'no no no')).toBe(3);
  });

  it('treats an empty reference as one error per hypothesis word', () => {
    expect(wordErrorRate('', '')).toBe(0);
    expect(wordErrorRate(' . ', 'uh huh')).toBe(2);
  });

  it('is 1 when nothing was recognised', () => {
    expect(wordErrorRate('one two three', '')).toBe(1);
  });
});

describe('editDistance', () => {
  it('is symmetric and bounded by the longer sequence', () => {
    const a = ['a', 'b', 'c', 'd'];
    const b = ['b', 'c', 'x', 'd', 'e'];
    expect(editDistance(a, b)).toBe(editDistance(b, a));
    expect(editDistance(a, b)).toBe(3);
    expect(editDistance([], b)).toBe(5);
  });
});
