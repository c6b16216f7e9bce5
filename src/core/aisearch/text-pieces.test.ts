import { describe, expect, it } from 'vitest';
import { editDistance } from './edit-distance.js';
import { formatClock, summarizeMentions } from './mention-summary.js';
import { tokenize } from './text-tokens.js';
import { splitUnits } from './transcript-units.js';
import { alignWordTimes } from './word-alignment.js';
import { baseFormCandidates, inflectedForms, stemOf } from './word-forms.js';

describe('tokenize', () => {
  it('keeps inner apostrophes, drops possessives and accents, and gives spans', () => {
    const text = "Marianne's café didn't open.";
    const tokens = tokenize(text, 10);
    expect(tokens.map((t) => t.norm)).toEqual(['marianne', 'cafe', 'didnt', 'open']);
    expect(text.slice(tokens[1].start - 10, tokens[1].end - 10)).toBe('café');
  });
});

describe('splitUnits', () => {
  it('cuts at sentence ends but not after titles', () => {
    const text = 'Mrs. John Dashwood came. She stayed! Why?';
    const units = splitUnits(text, tokenize(text), 0);
    expect(units.map((u) => text.slice(u.start, u.end))).toEqual(['Mrs. John Dashwood came.', 'She stayed!', 'Why?']);
  });

  it('cuts long unpunctuated recogniser output into readable pieces', () => {
    const text = Array.from({ length: 70 }, (_, i) => `word${i}`).join(' ');
    const units = splitUnits(text, tokenize(text), 0);
    expect(units.length).toBeGreaterThanOrEqual(3);
    for (const u of units) expect(u.endToken - u.firstToken).toBeLessThanOrEqual(32);
    expect(units.map((u) => text.slice(u.start, u.end)).join(' ')).toBe(text);
  });
});

describe('alignWordTimes', () => {
  it('matches words to text tokens despite punctuation and a missing word', () => {
    const tokens = tokenize('Hello, mother-in-law! How are you?');
    const times = alignWordTimes(tokens, [
      { w: 'hello', s: 1 },
      { w: 'mother-in-law', s: 2 },
      { w: 'how', s: 3 },
      { w: 'you', s: 4 },
    ]);
    expect([...times]).toEqual([1, 2, 2, 2, 3, NaN, 4]);
  });
});

describe('word forms', () => {
  it('joins inflections and irregular forms', () => {
    expect(stemOf('horses')).toBe(stemOf('horse'));
    expect(stemOf('married')).toBe(stemOf('marry'));
    expect(stemOf('children')).toBe(stemOf('child'));
    expect(stemOf('gave')).toBe(stemOf('give'));
    expect(inflectedForms('die').map(stemOf)).toContain(stemOf('died'));
    expect(baseFormCandidates('buses', 'n')).toContain('bus');
    expect(baseFormCandidates('tomatoes', 'n')).toContain('tomato');
  });
});

describe('editDistance', () => {
  it('counts edits and transpositions, and stops early past the limit', () => {
    expect(editDistance('elinor', 'eleanor')).toBe(2);
    expect(editDistance('form', 'from')).toBe(1);
    expect(editDistance('dashwood', 'passionate', 2)).toBe(3);
  });
});

describe('summaries', () => {
  it('formats clock times and says how many, where and the strongest quote', () => {
    expect(formatClock(65.9)).toBe('01:05');
    expect(formatClock(3725)).toBe('1:02:05');
    const s = summarizeMentions(
      'horse',
      [
        { quote: 'he had given her a horse', context: '', timestampSeconds: 15 },
        { quote: 'the horse is still yours', context: '', timestampSeconds: 204 },
      ],
      1,
    );
    expect(s).toBe('2 mentions of "horse" at 00:15 and 03:24. Strongest (03:24): "the horse is still yours"');
  });
});
