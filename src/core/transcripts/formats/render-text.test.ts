import { describe, expect, it } from 'vitest';
import { buildDoc } from './build-doc.js';
import { toParagraphs } from './paragraphs.js';
import { parsePlainText } from './parse-plain-text.js';
import { renderText } from './render-text.js';

describe('renderText', () => {
  it('writes one labelled paragraph per speaker turn', () => {
    const doc = buildDoc([
      { start: 0, end: 1, text: 'Hi.', speaker: 'Ana' },
      { start: 5, end: 6, text: 'Still Ana.', speaker: 'Ana' },
      { start: 6, end: 7, text: 'Ben here.', speaker: 'Ben' },
    ]);
    expect(renderText(doc)).toBe('Ana: Hi. Still Ana.\n\nBen: Ben here.\n');
  });

  it('breaks unlabelled text at long pauses and after long paragraphs', () => {
    const sentence = 'This sentence is about fifty characters long, ok.';
    const doc = buildDoc([
      { start: 0, end: 1, text: 'First.' },
      { start: 1.5, end: 2, text: 'Same paragraph.' },
      { start: 4, end: 5, text: 'After a pause.' },
      ...Array.from({ length: 14 }, (_, i) => ({ start: 10 + i, end: 10.9 + i, text: sentence })),
    ]);
    const paragraphs = toParagraphs(doc);
    expect(paragraphs.slice(0, 2).map((p) => p.text)).toEqual(['First. Same paragraph.', 'After a pause.']);
    expect(paragraphs.length).toBe(4);
    expect(paragraphs[2].text.length).toBeGreaterThanOrEqual(600);
  });

  it('breaks speech recognition text, which has no punctuation and few pauses, into paragraphs of about 600 characters', () => {
    const words = 'and so we talked about the garden and the weather and what grows well in the shade'.split(' ');
    // Fifteen-second segments back to back, as sphinx writes them: an hour would be one paragraph of 55,000 characters.
    const doc = buildDoc(Array.from({ length: 40 }, (_, i) => ({ start: i * 15, end: i * 15 + 14.9, text: [...words, ...words].join(' ') })));
    const paragraphs = toParagraphs(doc);
    expect(paragraphs.length).toBeGreaterThan(5);
    for (const p of paragraphs.slice(0, -1)) {
      expect(p.text.length).toBeGreaterThanOrEqual(600);
      expect(p.text.length).toBeLessThan(600 + 200);
    }
  });

  it('ends even a punctuated paragraph without a sentence end at 1,200 characters', () => {
    const clause = 'a clause, then another, and more;';
    const doc = buildDoc(Array.from({ length: 60 }, (_, i) => ({ start: i, end: i + 0.9, text: `${clause} ${clause}` })));
    expect(Math.max(...toParagraphs(doc).map((p) => p.text.length))).toBeLessThan(1200 + 100);
  });

  it('keeps the paragraphs of an untimed source', () => {
    const text = 'One.\n\nTwo.\n\nAna: Three.';
    expect(renderText(parsePlainText(text))).toBe('One.\n\nTwo.\n\nAna: Three.\n');
  });

  it('renders an empty document as an empty string', () => {
    expect(renderText(buildDoc([]))).toBe('');
  });
});
