import { describe, expect, it } from 'vitest';
import { parseHtmlTranscript } from './parse-html-transcript.js';
import { isUntimed } from './transcript-doc.js';

describe('parseHtmlTranscript', () => {
  it('reads a full document, ignoring scripts, styles and comments', () => {
    const doc = parseHtmlTranscript(
      '<!doctype html><html><head><style>p{}</style><script>var p = "<p>no</p>";</script></head><body>' +
        '<cite>Ana:</cite> <time>1:00:05</time> <p>Line one<br>line &amp; two <!-- hidden --></p>' +
        '<p>Same speaker, no time.</p>' +
        '<cite>Ben</cite><time>1:00:10</time><p>Last</p></body></html>',
    );
    expect(doc.segments).toMatchObject([
      { start: 3605, end: 3610, text: 'Line one line & two', speaker: 'Ana' },
      { start: 3605, end: 3610, text: 'Same speaker, no time.', speaker: 'Ana' },
      { start: 3610, end: 3610.4, text: 'Last', speaker: 'Ben' },
    ]);
  });

  it('reads a speaker and time that open their paragraph (or one of their own), leaving a later <cite> as words', () => {
    const doc = parseHtmlTranscript(
      '<p><cite>Ana:</cite> <time>0:05</time> Hello <b>there</b>.</p>' +
        '<p><time>0:09</time>We read <cite>Emma</cite> at <time>noon</time>.</p>' +
        '<p><cite>Ben:</cite><time>0:12</time>Bye.</p>' +
        '<p><cite>Cy</cite> <time>0:20</time></p><p>Alone.</p>',
    );
    expect(doc.segments.map((s) => [s.start, s.end, s.speaker, s.text])).toEqual([
      [5, 9, 'Ana', 'Hello there.'],
      [9, 12, 'Ana', 'We read Emma at noon.'],
      [12, 20, 'Ben', 'Bye.'],
      [20, 20.4, 'Cy', 'Alone.'],
    ]);
  });

  it('reads minutes past an hour written without hours', () => {
    const doc = parseHtmlTranscript('<time>59:50</time><p>before</p><time>61:05</time><p>after the hour</p><time>75:30</time><p>later</p>');
    expect(doc.segments.map((s) => [s.start, s.text])).toEqual([[3590, 'before'], [3665, 'after the hour'], [4530, 'later']]);
  });

  it('gives paragraphs without any <time> no timing', () => {
    const doc = parseHtmlTranscript('<p>One.</p><p>Two.</p>');
    expect(isUntimed(doc)).toBe(true);
    expect(doc.segments.map((s) => s.text)).toEqual(['One.', 'Two.']);
  });

  it('sorts turns whose times go backwards', () => {
    const doc = parseHtmlTranscript('<time>0:20</time><p>later</p><time>0:10</time><p>earlier</p>');
    expect(doc.segments.map((s) => [s.start, s.end, s.text])).toEqual([
      [10, 20, 'earlier'],
      [20, 20.4, 'later'],
    ]);
  });

  it('keeps a paragraph left open at the end', () => {
    expect(parseHtmlTranscript('<p>unclosed').segments[0].text).toBe('unclosed');
  });

  it('rejects HTML without paragraphs', () => {
    expect(() => parseHtmlTranscript('<div>hello</div>')).toThrow(/no <p> paragraphs/);
  });
});
