import { describe, expect, it } from 'vitest';
import { transcriptText, type SearchableSegment, type SearchableTranscript } from './searchable-transcript.js';
import { createTopicFinder } from './topic-finder.js';

function seg(start: number, text: string, speaker: string | null = null, timed = true): SearchableSegment {
  const words = text.split(/\s+/).map((w, i) => ({ w, s: start + i * 0.4 }));
  return { start, end: start + words.length * 0.4, text, speaker, words: timed ? words : [] };
}

const doc: SearchableTranscript = {
  language: 'en',
  wordTimesEstimated: false,
  segments: [
    seg(0, 'Welcome to the show. Today we are talking about getting around town.', 'Dana'),
    seg(10, 'I sold my automobile last spring, and honestly I do not miss it.', 'Marcus'),
    seg(20, 'The weather has been awful all week, rain every single morning.', 'Dana'),
    seg(30, 'Our guest is elinor price, who plans bus routes for the city.', 'Dana'),
    seg(40, 'Eleanor, what does a good bus network look like?', 'Marcus'),
    seg(50, 'Frequency matters more than anything else. Every ten minutes is the magic number.', 'Elinor'),
    seg(60, 'We also asked mrs dash wood from the council about parking fees.', 'Dana', false),
    seg(70, 'Parking fees pay for the buses, she said, which surprised me.', 'Marcus'),
    seg(80, 'Next week, the night bus, and the people who keep the city running.', 'Dana'),
  ],
};

describe('createTopicFinder', () => {
  const finder = createTopicFinder();

  it('finds an exact word with a verbatim quote, context and the time of its first word', () => {
    const r = finder.find(doc, 'weather');
    expect(r.found).toBe(true);
    expect(r.mentions).toHaveLength(1);
    expect(r.mentions[0].quote).toBe('The weather has been awful all week, rain every single morning.');
    expect(r.mentions[0].timestampSeconds).toBe(20);
    expect(r.mentions[0].context).toContain('I sold my automobile');
    expect(r.summary).toContain('1 mention of "weather" at 00:20');
  });

  it('finds a name however its accents are encoded: composed (NFC) or decomposed (NFD), in the topic or the transcript', () => {
    const nfc = 'We had coffee at Café Müller in Zürich before the flight to São Paulo.';
    for (const text of [nfc, nfc.normalize('NFD')]) {
      const accents: SearchableTranscript = { ...doc, segments: [seg(0, text, 'Dana')] };
      for (const topic of ['Müller', 'Zürich', 'São Paulo', 'Café Müller']) {
        for (const form of [topic.normalize('NFC'), topic.normalize('NFD')]) {
          expect(finder.find(accents, form).found, `${JSON.stringify(form)} in ${text === nfc ? 'NFC' : 'NFD'}`).toBe(true);
        }
      }
      // "beck" is not a word of "Lübeck" written decomposed.
      expect(finder.find({ ...doc, segments: [seg(0, 'A weekend in Lu\u0308beck by the sea.', 'Dana')] }, 'beck').found).toBe(false);
    }
  });

  it('searches words people usually put around a topic ("podcast", "episode") when they are all that was asked', () => {
    const show: SearchableTranscript = { ...doc, segments: [...doc.segments, seg(90, 'Thanks for listening to the podcast, see you next episode.', 'Dana')] };
    expect(finder.find(show, 'podcast').mentions.map((m) => m.timestampSeconds)).toEqual([90]);
    expect(finder.find(show, 'episode').found).toBe(true);
    // Around a real topic they stay fillers.
    expect(finder.find(show, 'the podcast episode about the weather').mentions[0]!.timestampSeconds).toBe(20);
  });

  it('matches plurals and inflections through stems', () => {
    const r = finder.find(doc, 'buses');
    expect(r.found).toBe(true);
    // Neighbouring sentences merge into one mention, the other kept in its context.
    expect(r.mentions.map((m) => m.timestampSeconds)).toEqual([30, 70]);
    expect(r.mentions[0].context).toContain('Eleanor, what does a good bus network');
    expect(r.mentions[1].context).toContain('the night bus');
  });

  it('finds synonyms from WordNet ("cars" finds "automobile")', () => {
    const r = finder.find(doc, 'cars');
    expect(r.found).toBe(true);
    expect(r.mentions[0].quote).toBe('I sold my automobile last spring, and honestly I do not miss it.');
    expect(r.summary).toContain('automobile');
  });

  it('says "Matched as" only with words the strongest quote holds, and not when the topic itself is there', () => {
    const bikes: SearchableTranscript = { ...doc, segments: [seg(0, 'I ride my bike to work, a mountain bike with wide tires.'), seg(10, 'Coffee first though, a double espresso, always espresso.')] };
    const viaSynonym = finder.find(bikes, 'bicycle');
    expect(viaSynonym.found).toBe(true);
    const named = [...viaSynonym.summary.matchAll(/"([^"]+)"/g)].map((m) => m[1]!).slice(2);
    expect(named.length).toBeGreaterThan(0);
    for (const w of named) for (const part of w.split(' ')) expect(viaSynonym.mentions[0]!.quote.toLowerCase()).toContain(part);
    const literal = finder.find(bikes, 'espresso');
    expect(literal.summary).not.toContain('Matched as');
  });

  it('finds misspelt names, including ones split across words', () => {
    // "elinor" and "Eleanor" are in neighbouring sentences: one mention, the other in its context.
    const elinor = finder.find(doc, 'Elinor');
    expect(elinor.mentions.map((m) => m.timestampSeconds)).toEqual([30]);
    expect(elinor.mentions[0].context).toContain('Eleanor, what does');
    expect(finder.find(doc, 'Eleanor').found).toBe(true);
    const dashwood = finder.find(doc, 'Mrs Dashwood');
    expect(dashwood.found).toBe(true);
    // Segment 6 has no word times: the quote falls back to the segment start.
    expect(dashwood.mentions[0]).toMatchObject({ quote: 'We also asked mrs dash wood from the council about parking fees.', timestampSeconds: 60 });
  });

  it('requires a quoted phrase to match as a phrase', () => {
    // The quote starts at "Every", the seventh recognised word of its segment.
    expect(finder.find(doc, '"ten minutes"').mentions.map((m) => m.timestampSeconds)).toEqual([50 + 0.4 * 6]);
    expect(finder.find(doc, '"minutes ten"').found).toBe(false);
  });

  it('needs most of a multi-word topic in one window', () => {
    // Both sentences about parking fees are neighbours: one mention.
    expect(finder.find(doc, 'parking fees').mentions).toHaveLength(1);
    expect(finder.find(doc, 'parking tickets for motorbikes').found).toBe(false);
  });

  it('answers absent topics and stopwords-only topics honestly', () => {
    for (const topic of ['volcano', 'cryptocurrency', 'the and of', '', '   ', 'what did they talk about']) {
      const r = finder.find(doc, topic);
      expect(r).toMatchObject({ found: false, mentions: [] });
      expect(r.summary).toMatch(/^No mention of/);
    }
  });

  it('returns at most maxMentions, best chosen, in time order', () => {
    const two = createTopicFinder({ maxMentions: 2 }).find(doc, 'bus');
    expect(two.mentions).toHaveLength(2);
    const times = two.mentions.map((m) => m.timestampSeconds!);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('returns only quotes that are substrings of the transcript text', () => {
    const text = transcriptText(doc);
    for (const topic of ['bus', 'cars', 'Elinor', 'parking', 'city']) {
      for (const m of finder.find(doc, topic).mentions) expect(text).toContain(m.quote);
    }
  });

  it('places no time when a segment has neither words nor a usable start', () => {
    const untimed: SearchableTranscript = {
      language: null,
      wordTimesEstimated: false,
      segments: [{ start: Number.NaN, end: Number.NaN, text: 'The telescope arrived today.', speaker: null, words: [] }],
    };
    expect(finder.find(untimed, 'telescope').mentions[0]).toMatchObject({ quote: 'The telescope arrived today.', timestampSeconds: null });
    expect(finder.find(untimed, 'telescope').summary).toContain('unknown time');
  });

  it('caches the prepared transcript per document object', () => {
    expect(finder.prepare(doc)).toBe(finder.prepare(doc));
  });
});
