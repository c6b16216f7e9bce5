import { Tokenizer } from 'htmlparser2';
import { buildDoc, checkSegmentCount } from './build-doc.js';
import { parseClock } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';
import { splitWords } from './word-timing.js';

/** Speaking rate used to guess how long the last timed paragraph lasts, in words per second (150 wpm). */
const WORDS_PER_SECOND = 2.5;

interface Paragraph {
  speaker: string | null;
  start: number | null;
  text: string;
}

/**
 * Parses the Podcasting 2.0 HTML transcript shape (`text/html`): repeated
 * `<cite>Speaker:</cite>` `<time>M:SS</time>` `<p>text</p>`, with or without
 * `<html>`/`<body>`; a `<cite>` and `<time>` may also open the `<p>` they
 * belong to. Each `<p>` becomes a segment. A paragraph without its own
 * `<cite>` keeps the previous speaker; one without `<time>` starts where the
 * previous one did. A segment ends where the next later one starts; the last
 * ends after its words at 150 words per minute. When no paragraph has a time
 * the document is untimed (all times 0, see `isUntimed`).
 *
 * @throws TranscriptParseError when there is no `<p>` with text.
 */
export function parseHtmlTranscript(html: string): TranscriptDoc {
  const paragraphs = readParagraphs(html);
  if (paragraphs.length === 0) {
    throw new TranscriptParseError('no <p> paragraphs with text found', 'HTML');
  }
  if (paragraphs.every((p) => p.start === null)) {
    return buildDoc(paragraphs.map((p) => ({ ...p, start: 0, end: 0 })));
  }
  let previous = 0;
  const timed = paragraphs
    .map((p) => ({ ...p, start: (previous = p.start ?? previous) }))
    .sort((a, b) => a.start - b.start);
  // Walk backwards so each paragraph finds the next later start in one pass.
  const ends: number[] = new Array(timed.length);
  let nextStart: number | null = null;
  for (let i = timed.length - 1; i >= 0; i--) {
    if (i + 1 < timed.length && timed[i + 1].start > timed[i].start) nextStart = timed[i + 1].start;
    ends[i] = nextStart ?? timed[i].start + splitWords(timed[i].text).length / WORDS_PER_SECOND;
  }
  return buildDoc(timed.map((p, i) => ({ ...p, end: ends[i] })));
}

// htmlparser2's tokenizer rather than its Parser: the Parser keeps a stack of
// open elements that grows with every unclosed tag at a cost that is
// quadratic, while the shape we read is flat and needs no tree.
function readParagraphs(html: string): Paragraph[] {
  const paragraphs: Paragraph[] = [];
  let speaker: string | null = null;
  let start: number | null = null;
  let capture: 'cite' | 'time' | 'p' | null = null;
  let rawText: string | null = null;
  let buffer = '';
  // A `<cite>` or `<time>` opening a paragraph (`<p><cite>Ana:</cite> <time>0:05</time> Hi</p>`) is its speaker and time.
  let lead: { name: 'cite' | 'time'; text: string } | null = null;
  const open = (name: string) => {
    if (name === 'script' || name === 'style') rawText = name;
    else if (capture === 'p' && lead === null && (name === 'cite' || name === 'time') && buffer.trim() === '') lead = { name, text: '' };
    else if (capture === 'p' && name === 'br') buffer += ' ';
    else if (capture === null && (name === 'cite' || name === 'time' || name === 'p')) {
      capture = name;
      buffer = '';
    }
  };
  const close = (name: string) => {
    if (name === rawText) rawText = null;
    if (lead !== null && name === lead.name) {
      const text = lead.text.replace(/\s+/g, ' ').trim();
      const time = lead.name === 'time' ? parseClock(text) : null;
      if (lead.name === 'cite') speaker = text.replace(/:$/, '').trim() || null;
      else if (time !== null) start = time;
      // A <time> that is not a clock time is words of the paragraph.
      else buffer += ` ${lead.text}`;
      lead = null;
      return;
    }
    if (name !== capture) return;
    const text = buffer.replace(/\s+/g, ' ').trim();
    if (name === 'cite') speaker = text.replace(/:$/, '').trim() || null;
    else if (name === 'time') start = parseClock(text);
    else {
      // A paragraph holding only its speaker and time (`<p><cite>Ana</cite> <time>0:05</time></p><p>Hi</p>`) hands them on.
      if (text !== '') {
        checkSegmentCount(paragraphs.push({ speaker, start, text }));
        start = null;
      }
    }
    capture = null;
  };
  const text = (s: string) => {
    if (lead !== null && rawText === null) lead.text += s;
    else if (capture !== null && rawText === null) buffer += s;
  };
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname: (s, e) => open(html.slice(s, e).toLowerCase()),
      onclosetag: (s, e) => close(html.slice(s, e).toLowerCase()),
      ontext: (s, e) => text(html.slice(s, e)),
      ontextentity: (codepoint) => text(String.fromCodePoint(codepoint)),
      onattribdata() {},
      onattribentity() {},
      onattribend() {},
      onattribname() {},
      oncdata() {},
      oncomment() {},
      ondeclaration() {},
      onend() {},
      onopentagend() {},
      onprocessinginstruction() {},
      onselfclosingtag() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
  // A paragraph left open at the end of the input still counts.
  if (capture === 'p') close('p');
  return paragraphs;
}
