import { describe, expect, it } from 'vitest';
import { aPrefixRelatives } from './prefixed-adjectives.js';
import { createRelatedTerms } from './related-terms.js';
import type { SearchableTranscript } from './searchable-transcript.js';
import { createTopicFinder } from './topic-finder.js';
import { createWordnetReader } from './wordnet-reader.js';

/** Filler that shares no word or relative with the topics below, to put distance between sentences. */
const filler = [
  'The committee met on Tuesday to go over the minutes.',
  'Somebody had left the window open again.',
  'We argued about the colour of the new logo.',
  'The printer on the third floor jammed twice.',
  'Lunch was late because the order went missing.',
  'Nobody could remember the password for the projector.',
];

function doc(...sentences: string[]): SearchableTranscript {
  return {
    language: 'en',
    wordTimesEstimated: false,
    segments: sentences.map((text, i) => ({ start: i * 10, end: i * 10 + 9, text, speaker: null, words: [] })),
  };
}

const quotes = (r: { mentions: { quote: string }[] }): string[] => r.mentions.map((m) => m.quote);

describe('evidence from the transcript about a relative\'s sense', () => {
  const finder = createTopicFinder();

  it('reads "present" as a gift after a determiner, and once it is used so near "gift", everywhere', () => {
    const d = doc(
      'For her birthday she chose a gift with great care.',
      'He accepted the present with thanks.',
      ...filler,
      'Weeks later she asked about his present again.',
      ...filler,
      'He was not present at the meeting.',
    );
    expect(quotes(finder.find(d, 'gift'))).toEqual([
      'For her birthday she chose a gift with great care.',
      'Weeks later she asked about his present again.',
    ]);
    // Without "gift" anywhere nothing settles the sense: the noun after "his" alone is not enough.
    const noGift = doc('Weeks later she asked about his present again.', ...filler, 'He was not present at the meeting.');
    expect(finder.find(noGift, 'gift').found).toBe(false);
  });

  it('counts a relative at half weight where it starts a compound', () => {
    expect(finder.find(doc('The car was full of shopping.'), 'automobiles').found).toBe(true);
    expect(finder.find(doc('The car park was full by seven.'), 'automobiles').found).toBe(false);
  });

  it('keeps narrower words far from the topic\'s own words, not wider ones', () => {
    const sleep = doc('She fell asleep on the sofa.', ...filler, 'A short nap after lunch helps.');
    expect(quotes(finder.find(sleep, 'sleep'))).toEqual(['She fell asleep on the sofa.', 'A short nap after lunch helps.']);
    const bikes = doc('I ride my bike every day.', ...filler, 'Delivery vehicles block the road.');
    expect(quotes(finder.find(bikes, 'bicycles'))).toEqual(['I ride my bike every day.']);
  });
});

describe('a topic that names a category', () => {
  const finder = createTopicFinder();

  it('finds the members a transcript names, below the category\'s own word', () => {
    const garden = doc(
      'Frozen vegetables are a great bargain.',
      ...filler,
      'We have had so many cherry tomatoes this year.',
      ...filler,
      'Next year I am trying runner beans up the fence.',
    );
    const r = finder.candidates(garden, 'vegetables');
    expect(r.map((c) => c.quote)).toEqual([
      'Frozen vegetables are a great bargain.',
      'We have had so many cherry tomatoes this year.',
      'Next year I am trying runner beans up the fence.',
    ]);
    expect(r[1].score).toBeLessThan(r[0].score);
    expect(quotes(finder.find(doc('We have had so many cherry tomatoes this year.'), 'vegetables'))).toHaveLength(1);
  });

  it('takes a doubtful member in the class sense when the transcript names other members', () => {
    // "carrot" is first the plant in WordNet; beside lentils and tomatoes it is the vegetable.
    expect(finder.find(doc('She ate a raw carrot as a snack.'), 'vegetables').found).toBe(false);
    const lunch = doc('Lentils are cheap.', ...filler, 'She ate a raw carrot as a snack.', ...filler, 'The tomatoes are ripe.');
    expect(quotes(finder.find(lunch, 'vegetables'))).toContain('She ate a raw carrot as a snack.');
  });

  it('does not take a member written as a name inside a sentence ("Apple" the company)', () => {
    expect(finder.find(doc('We bought pears and a bag of apples at the market.'), 'fruit').found).toBe(true);
    expect(finder.find(doc('Last week Apple announced a new phone.'), 'fruit').found).toBe(false);
  });

  it('takes the same word starting a sentence as that name too, unless the transcript also writes it in lower case', () => {
    const keynote = doc('Apple announced a new phone today.', ...filler, 'Analysts expect Apple to sell millions of them.');
    expect(finder.find(keynote, 'fruit').found).toBe(false);
    const orchard = doc('Apple trees need a cold winter.', ...filler, 'Analysts expect Apple to sell millions of them.', ...filler, 'We picked an apple and two pears.');
    expect(quotes(finder.find(orchard, 'fruit'))).toContain('We picked an apple and two pears.');
  });

  it('finds the named members of a class: a Roman emperor, the planets, a river', () => {
    expect(quotes(finder.find(doc(...filler, 'The story goes that Nero fiddled while the city burned.'), 'roman emperor'))).toEqual(['The story goes that Nero fiddled while the city burned.']);
    expect(finder.find(doc('Tonight we saw Mars and Jupiter from the garden.'), 'planets').found).toBe(true);
    expect(finder.find(doc('We walked along the Thames, then went home.'), 'rivers').found).toBe(true);
    // Recognised speech has no capitals: a spelling that is only ever a name is still that name.
    expect(finder.find(doc('the story goes that nero fiddled while the city burned'), 'roman emperor').found).toBe(true);
  });

  it('does not take a named member inside a longer name, nor an everyday word that is also a name', () => {
    expect(finder.find(doc('Bruno Mars sang at the halftime show.'), 'planets').found).toBe(false);
    expect(finder.find(doc('Tonight we saw Jupiter Ascending at the cinema.'), 'planets').found).toBe(false);
    expect(finder.find(doc('Thames Water raised its prices again.'), 'rivers').found).toBe(false);
    // "Barber" the composer: the hairdresser is no composer; the full name is.
    expect(finder.find(doc('My barber cut my hair too short.'), 'composers').found).toBe(false);
    expect(finder.find(doc('Samuel Barber wrote the adagio.'), 'composers').found).toBe(true);
  });

  it('leaves categories too broad to stand for their members alone', () => {
    expect(finder.find(doc('The cherry tomatoes were lovely.'), 'food').found).toBe(false);
    expect(finder.find(doc('A private motorcar is parked for ninety five percent of its life.'), 'sports').found).toBe(false);
  });
});

describe('WordNet relations beyond its pointers', () => {
  const wn = createWordnetReader();

  it('pairs "a-" adjectives with their base only when the definition uses the base', () => {
    expect(aPrefixRelatives(wn, 'sleep').map((r) => r.lemma)).toEqual(['asleep']);
    expect(aPrefixRelatives(wn, 'asleep').map((r) => r.lemma)).toEqual(['sleep']);
    expect(aPrefixRelatives(wn, 'float').map((r) => r.lemma)).toEqual(['afloat']);
    for (const w of ['head', 'ware', 'way', 'typical', 'ahead', 'aware']) expect(aPrefixRelatives(wn, w)).toEqual([]);
  });

  it('reads later senses that repeat the first sense\'s words ("inheritance" and what is inherited)', () => {
    const lemmas = createRelatedTerms(wn).related('inheritance').map((r) => r.lemma);
    expect(lemmas).toEqual(expect.arrayContaining(['inherit', 'bequest', 'legacy']));
  });
});
