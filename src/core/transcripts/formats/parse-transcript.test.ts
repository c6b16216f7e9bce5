import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MAX_TRANSCRIPT_WORDS } from './build-doc.js';
import { MAX_TRANSCRIPT_BYTES, parseTranscript, sniffFormat } from './parse-transcript.js';
import { roundMs } from './timecodes.js';
import type { TranscriptDoc } from './transcript-doc.js';
import { TranscriptParseError } from './transcript-parse-error.js';

const fixture = (name: string) => readFileSync(new URL(`../../../../test/fixtures/transcripts/${name}`, import.meta.url));

const turns = (doc: TranscriptDoc) =>
  doc.segments.filter((s, i) => i === 0 || doc.segments[i - 1].speaker !== s.speaker).map((s) => s.speaker);

function expectWellFormed(doc: TranscriptDoc) {
  for (const [i, seg] of doc.segments.entries()) {
    expect(seg.end).toBeGreaterThanOrEqual(seg.start);
    if (i > 0) expect(seg.start).toBeGreaterThanOrEqual(doc.segments[i - 1].start);
    expect(seg.words.map((w) => w.w).join(' ')).toBe(seg.text);
    for (const w of seg.words) {
      expect(w.s).toBeGreaterThanOrEqual(seg.start);
      expect(w.s).toBeLessThanOrEqual(seg.end);
      expect(roundMs(w.s)).toBe(w.s);
    }
  }
}

describe('parseTranscript on the publisher fixtures', () => {
  it('reads the Buzzsprout SRT: 222 cues, `Name:` labels carried to the end of each turn', () => {
    const doc = parseTranscript(fixture('pc20-example.srt'), 'application/x-subrip');
    expectWellFormed(doc);
    expect(doc.segments).toHaveLength(222);
    expect(turns(doc)).toEqual(['Travis', 'Sarah', 'Travis', 'Gilon', 'Travis', 'Gilon', 'Travis', 'Sarah', 'Gilon', 'Travis']);
    expect(doc.segments[0]).toMatchObject({ start: 0.179, end: 2.399, speaker: 'Travis' });
    expect(doc.segments[0].text).toBe("When you first get started in podcasting, it's");
    expect(doc.segments.at(-1)).toMatchObject({ start: 752.671, end: 754.769, text: 'best thing to do is to batch your episodes.' });
    expect(doc.wordTimesEstimated).toBe(true);
    expect(doc.language).toBeNull();
  });

  it('reads the same SRT whether labelled application/srt, text/plain or nothing useful', () => {
    const expected = parseTranscript(fixture('pc20-example.srt'), 'application/srt');
    expect(parseTranscript(fixture('pc20-example.srt'), 'text/plain')).toEqual(expected);
    expect(parseTranscript(fixture('pc20-example.srt'), 'application/octet-stream')).toEqual(expected);
  });

  it('reads the CRLF WebVTT with voice tags and entities', () => {
    const doc = parseTranscript(fixture('pc20-example.vtt'), 'text/vtt');
    expectWellFormed(doc);
    expect(doc.segments).toHaveLength(7);
    expect(doc.segments.map((s) => s.speaker)).toEqual(['Sarah', 'Sarah', 'Sarah', 'Sarah', 'Sarah', 'Gillian', 'Gillian']);
    expect(doc.segments[0]).toMatchObject({ start: 0, end: 2.76, text: "In today's episode, you'll learn whether or not you" });
    expect(doc.segments[2].text).toContain('Podcasting Q&A,');
    expect(doc.segments.at(-1)).toMatchObject({ start: 21.45, end: 25.35 });
  });

  it('reads single-digit-hour WebVTT and drops its blank cue', () => {
    const doc = parseTranscript(fixture('pocketcasts-sample-single-digit-hours.vtt'), 'text/vtt; charset=utf-8');
    expectWellFormed(doc);
    // 14 cues in the file; the one at 0:01:07.650 holds only a space.
    expect(doc.segments).toHaveLength(13);
    expect(new Set(doc.segments.map((s) => s.speaker))).toEqual(new Set(['Speaker 1']));
    expect(doc.segments[0]).toMatchObject({ start: 15.41, end: 25.85 });
    expect(doc.segments.at(-1)).toMatchObject({ start: 71.89, end: 75.49, text: 'that produces no resultant pleasure?' });
  });

  it('groups the word-level JSON into sentences, keeping real word times', () => {
    const doc = parseTranscript(fixture('pc20-example.json'), 'application/json');
    expectWellFormed(doc);
    expect(doc.wordTimesEstimated).toBe(false);
    expect(doc.segments).toEqual([
      {
        start: 0.5,
        end: 2.5,
        text: 'I am your father.',
        speaker: 'Darth Vader',
        words: [
          { w: 'I', s: 0.5 },
          { w: 'am', s: 1 },
          { w: 'your', s: 1.5 },
          { w: 'father.', s: 2.25 },
        ],
      },
      { start: 2.75, end: 3, text: 'Nooooo', speaker: 'Luke', words: [{ w: 'Nooooo', s: 2.75 }] },
    ]);
  });

  it('reads the HTML turns: speakers, <time> starts, decoded entities', () => {
    const doc = parseTranscript(fixture('pc20-example.html'), 'text/html');
    expectWellFormed(doc);
    expect(doc.segments).toHaveLength(10);
    expect(turns(doc)).toEqual(['Travis', 'Sarah', 'Travis', 'Gilon', 'Travis', 'Gilon', 'Travis', 'Sarah', 'Gilon', 'Travis']);
    expect(doc.segments.map((s) => s.start)).toEqual([0, 53, 102, 219, 263, 322, 376, 562, 617, 691]);
    expect(doc.segments[0].end).toBe(53);
    expect(doc.segments[0].text).toMatch(/^When you first get started in podcasting, it's almost/);
    // The last turn has no successor: its 228 words at 150 wpm.
    expect(doc.segments.at(-1)!.end).toBe(691 + 228 / 2.5);
  });

  it('sniffs every fixture when the type is unknown', () => {
    const cases: [string, string][] = [
      ['pc20-example.srt', 'srt'],
      ['pc20-example.vtt', 'vtt'],
      ['pocketcasts-sample-single-digit-hours.vtt', 'vtt'],
      ['pc20-example.json', 'json'],
      ['pc20-example.html', 'html'],
    ];
    for (const [name, format] of cases) {
      const text = fixture(name).toString('utf8');
      expect(sniffFormat(text)).toBe(format);
      expect(parseTranscript(text, '')).toEqual(parseTranscript(text, format === 'vtt' ? 'text/vtt' : `text/${format}`));
    }
  });
});

describe('parseTranscript on awkward input', () => {
  it('reads WebVTT served under an SRT type, and SRT served as WebVTT', () => {
    const vtt = fixture('pc20-example.vtt');
    expect(parseTranscript(vtt, 'application/srt')).toEqual(parseTranscript(vtt, 'text/vtt'));
    const srt = fixture('pc20-example.srt');
    expect(parseTranscript(srt, 'text/vtt')).toEqual(parseTranscript(srt, 'application/srt'));
  });

  it('reads SRT without hours served as text/plain or an unknown type, not as words', () => {
    const srt = '1\r\n01:02,000 --> 01:03,500\r\nHello there.\r\n\r\n2\r\n01:04.000 --> 01:05.000\r\nBye.\r\n';
    for (const type of ['text/plain', 'application/octet-stream', '']) {
      expect(parseTranscript(srt, type).segments.map((s) => [s.start, s.end, s.text]), type).toEqual([[62, 63.5, 'Hello there.'], [64, 65, 'Bye.']]);
    }
  });

  it('decodes UTF-8 with a byte order mark and UTF-16LE', () => {
    const text = 'WEBVTT\n\n00:00.000 --> 00:01.000\nCafé ☕\n';
    const utf8 = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(parseTranscript(utf8, 'text/vtt').segments[0].text).toBe('Café ☕');
    expect(parseTranscript(utf16, 'text/vtt').segments[0].text).toBe('Café ☕');
    expect(parseTranscript(`\uFEFF${text}`, 'text/vtt').segments[0].text).toBe('Café ☕');
  });

  it('decodes by the charset given or in the type; a byte order mark wins, an unknown charset is UTF-8', () => {
    const latin = Buffer.from('1\n00:00:01,000 --> 00:00:02,000\ncaf\xe9 cr\xe8me\n', 'latin1');
    expect(parseTranscript(latin, 'text/plain; charset=windows-1252').segments[0].text).toBe('café crème');
    // The format from one type, the charset from another (a feed's type, the server's header).
    expect(parseTranscript(latin, 'application/srt', 'iso-8859-1').segments[0]).toMatchObject({ start: 1, text: 'café crème' });
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('café crème')]);
    expect(parseTranscript(bom, 'text/plain; charset=windows-1252').segments[0].text).toBe('café crème');
    expect(parseTranscript(Buffer.from('café crème'), 'text/plain; charset=x-klingon').segments[0].text).toBe('café crème');
  });

  it('rejects empty and oversized bodies', () => {
    expect(() => parseTranscript(' \n ', 'text/vtt')).toThrow(/empty/);
    expect(() => parseTranscript(Buffer.alloc(MAX_TRANSCRIPT_BYTES + 1, 0x61), 'text/plain')).toThrow(/byte limit/);
  });

  const time = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}.000`;
  const vtt = (cues: number, text: (i: number) => string) => `WEBVTT\n\n${Array.from({ length: cues }, (_, i) => `${i + 1}\n${time(i)} --> ${time(i + 1)}\n${text(i)}\n`).join('\n')}`;

  it(`refuses more words than ${MAX_TRANSCRIPT_WORDS.toLocaleString('en-US')} (longer than any episode) however few bytes carry them`, () => {
    // 13 MB of ten-word cues: 1.6 million words, once stored for 36 s.
    expect(() => parseTranscript(vtt(160_000, (i) => `some words spoken here in this cue number ${i} okay`), 'text/vtt')).toThrow(/more than 150000 words/);
    expect(() => parseTranscript(vtt(MAX_TRANSCRIPT_WORDS / 10 + 1, () => 'one two three four five six seven eight nine ten'), 'text/vtt')).toThrow(TranscriptParseError);
  });

  it('reads ten hours of one-word cues, as word-timed captions come', () => {
    const doc = parseTranscript(vtt(10 * 3600, (i) => `word${i}`), 'text/vtt');
    expect(doc.segments).toHaveLength(36_000);
  });

  it('keeps the declared parser’s error when nothing else fits', () => {
    expect(() => parseTranscript('{"segments": 3}', 'application/json')).toThrow(TranscriptParseError);
    expect(() => parseTranscript('{"segments": 3}', 'application/json')).toThrow(/"segments" array/);
    expect(() => parseTranscript('not json', 'application/json')).toThrow(/not valid JSON/);
  });

  // Each body is just under the byte limit and built to be as costly per byte
  // as we could think of; the limits on words and segments keep all fast.
  const fill = (unit: string, head = '', tail = '') =>
    head + unit.repeat(Math.floor((MAX_TRANSCRIPT_BYTES - head.length - tail.length) / unit.length)) + tail;
  it.each([
    ['text/plain', fill('abcdefghijk ')],
    ['text/plain', fill('Abcdefghijk: word\n\n')],
    ['text/plain', fill('a\n')],
    ['text/html', fill('<p>abcdefghi</p>')],
    ['text/html', fill('<cite>', '<p>')],
    ['application/srt', fill('1\n00:00:00,000 --> 00:00:01,000\nab cd ef gh\n\n')],
    ['text/vtt', fill('00:00.000 --> 00:01.000\n<v A>ab</v><v B>cd</v> ef\n\n', 'WEBVTT\n\n')],
    ['text/vtt', fill('<', 'WEBVTT\n\n00:00.000 --> 00:01.000\n')],
    ['application/json', fill('{"startTime":1,"endTime":2,"body":"ab"},', '{"segments":[', '{"startTime":1,"body":"x"}]}')],
  ])('finishes within seconds on 20 MB of %s', (type, body) => {
    const started = performance.now();
    try {
      parseTranscript(body, type);
    } catch (err) {
      expect(err).toBeInstanceOf(TranscriptParseError);
    }
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
