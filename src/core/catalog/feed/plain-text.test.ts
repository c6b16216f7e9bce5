import { describe, expect, it } from 'vitest';
import { htmlToText, plainLine } from './plain-text.js';

describe('htmlToText', () => {
  it.each([
    ['<p>Hello</p><p>world</p>', 'Hello world'],
    ['line<br/>break', 'line break'],
    ['<ul><li>one</li><li>two</li></ul>', 'one two'],
    ['  lots \n\n of\t\twhitespace  ', 'lots of whitespace'],
    ['Juli&aacute;n &amp; Mart&iacute;nez&nbsp;en Cuba', 'Julián & Martínez en Cuba'],
    ['<a href="x">link</a> text<script>alert(1)</script><style>p{}</style>', 'link text'],
    ['<b>bold</b>, <i>italic</i>', 'bold, italic'],
    ['plain text with no markup', 'plain text with no markup'],
    ['a < b and c > d', 'a < b and c > d'],
    ['nul\u0000and\u0007bell', 'nulandbell'],
  ])('%j → %j', (html, text) => {
    expect(htmlToText(html)).toBe(text);
  });

  it('cuts at the cap without splitting a surrogate pair', () => {
    expect(htmlToText('<p>abcdef</p>', 4)).toBe('abcd');
    expect(htmlToText('ab😀cd', 3)).toBe('ab');
    expect(htmlToText(`<p>${'word '.repeat(5000)}</p>`)).toHaveLength(4999);
  });

  it('stops early on a huge description', () => {
    const huge = `<div>${'<p>paragraph text</p>'.repeat(1_000_000)}</div>`;
    const started = performance.now();
    expect(htmlToText(huge).length).toBeLessThanOrEqual(5000);
    // Parsing all 21 MB would take seconds.
    expect(performance.now() - started).toBeLessThan(250);
  });
});

describe('plainLine', () => {
  it('decodes HTML entities but keeps angle brackets as text', () => {
    expect(plainLine('Tom &amp; Jerry <live>')).toBe('Tom & Jerry <live>');
    expect(plainLine('  Episode\n 3  ')).toBe('Episode 3');
  });
});
