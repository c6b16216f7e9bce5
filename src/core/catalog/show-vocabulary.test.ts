import { describe, expect, it } from 'vitest';
import { showVocabulary } from './show-vocabulary.js';
import { vocabularyPrompt } from '../../infra/asr/vocabulary-prompt.js';

const feed = {
  show: { title: 'The Commute', author: 'Dana Hale and Marcus Webb' },
  episodes: [
    {
      title: 'Who owns the street? With Siobhan Kearney',
      description: 'Dana and Marcus talk to transport planner Siobhan Kearney about junctions in Dublin. Welcome back!',
      persons: [{ name: 'Siobhan Kearney' }],
    },
    { title: 'Night buses', description: 'Our guest Chidi Okonkwo rides the N41 with us.', persons: [] },
  ],
  transcripts: ['Marcus: My daughter rides to school on Harcourt Road now.'],
};

describe('a show\'s own vocabulary', () => {
  it('lists the feed\'s people first, then the title and the names in episode notes and transcripts', () => {
    const words = showVocabulary(feed);
    expect(words.slice(0, 3)).toEqual(['Siobhan Kearney', 'Dana Hale', 'Marcus Webb']);
    expect(words).toEqual(expect.arrayContaining(['The Commute', 'Chidi Okonkwo', 'Dublin', 'Harcourt Road', 'Okonkwo', 'Kearney']));
    // Sentence-initial words and greetings are not names.
    for (const w of ['Welcome', 'Who', 'Night', 'Our']) expect(words).not.toContain(w);
  });

  it('leaves out everyday words the recogniser knows, and keeps to the limit', () => {
    const words = showVocabulary(feed, { isCommonWord: (w) => w === 'dublin', max: 4 });
    expect(words).toHaveLength(4);
    expect(showVocabulary(feed, { isCommonWord: (w) => w === 'dublin' })).not.toContain('Dublin');
  });

  it('becomes a whisper prompt of whole names within its length', () => {
    expect(vocabularyPrompt(['Siobhan Kearney', 'The Commute', 'Siobhan Kearney'])).toBe('Siobhan Kearney, The Commute.');
    expect(vocabularyPrompt([])).toBeNull();
    const long = vocabularyPrompt(Array.from({ length: 200 }, (_, i) => `Guest Number${i}`))!;
    expect(long.length).toBeLessThanOrEqual(600);
    expect(long).toMatch(/Number\d+\.$/);
  });
});
