import { describe, expect, it } from 'vitest';
import { findNameVariants } from './name-variants.js';
import { prepareTranscript } from './prepared-transcript.js';
import { createRelatedTerms } from './related-terms.js';
import { stemOf } from './word-forms.js';
import { createWordnetReader } from './wordnet-reader.js';

describe('WordNet reader', () => {
  const wn = createWordnetReader();

  it('finds index entries by bisection and reads synsets at their offsets', () => {
    const car = wn.lookup('car', 'n')!;
    expect(car.offsets.length).toBeGreaterThanOrEqual(5);
    const first = wn.synset('n', car.offsets[0]);
    expect(first.words).toEqual(expect.arrayContaining(['car', 'auto', 'automobile', 'motorcar']));
    expect(first.pointers.some((p) => p.symbol === '@')).toBe(true);
    expect(wn.lookup('sports car', 'n')).not.toBeNull();
    expect(wn.lookup('qwzzx', 'n')).toBeNull();
    expect(wn.lookup('a', 'n')?.lemma).toBe('a');
  });
});

describe('related terms', () => {
  const related = createRelatedTerms();

  it('gives synonyms above broader and narrower terms, all below an exact match', () => {
    const cars = related.related('cars');
    const weight = (l: string): number => cars.find((r) => r.lemma === l)?.weight ?? 0;
    expect(weight('automobile')).toBeGreaterThan(weight('vehicle'));
    expect(weight('vehicle')).toBeGreaterThan(0);
    expect(weight('jeep')).toBeGreaterThan(0);
    expect(weight('machine')).toBe(0);
    expect(Math.max(...cars.map((r) => r.weight))).toBeLessThan(1);
  });

  it('tells names from everyday words', () => {
    expect(related.isCommonWord('horse')).toBe(true);
    expect(related.isCommonWord('willoughby')).toBe(false);
    expect(related.baseForms('buses')).toContain('bus');
    expect(related.isCompound(['sports', 'cars'])).toBe(true);
  });
});

describe('name variants', () => {
  const doc = {
    language: 'en',
    wordTimesEstimated: false,
    segments: [
      { start: 0, end: 5, text: 'mrs dash wood said eleanor was right', speaker: null, words: [] },
      { start: 5, end: 9, text: 'colonel brand that left the room in marriage', speaker: null, words: [] },
    ],
  };
  const p = prepareTranscript(doc, stemOf);
  const forms = (name: string): string[] => findNameVariants(p, name, false, (w) => ['marriage', 'brand', 'left', 'room'].includes(w)).map((v) => v.form);

  it('finds respellings, split names and truncations, not lookalike words', () => {
    expect(forms('dashwood')).toEqual(['dash wood']);
    expect(forms('elinor')).toEqual(['eleanor']);
    expect(forms('brandon')).toContain('brand');
    expect(forms('marianne')).toEqual([]);
    expect(findNameVariants(p, 'tom', false)).toEqual([]);
  });
});
