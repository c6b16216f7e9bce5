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

  it('keeps the paragraphs of an untimed source', () => {
    const text = 'One.\n\nTwo.\n\nAna: Three.';
    expect(renderText(parsePlainText(text))).toBe('One.\n\nTwo.\n\nAna: Three.\n');
  });

  it('renders an empty document as an empty string', () => {
    expect(renderText(buildDoc([]))).toBe('');
  });
});
