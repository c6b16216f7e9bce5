import { describe, expect, it } from 'vitest';
import { parseVtt } from './parse-vtt.js';
import { TranscriptParseError } from './transcript-parse-error.js';
import { decodeCharacterReferences } from './character-references.js';
import { readVoiceRuns } from './vtt-cue-text.js';

describe('parseVtt', () => {
  it('skips NOTE, STYLE and REGION blocks, cue identifiers and cue settings', () => {
    const doc = parseVtt(
      [
        'WEBVTT - a title',
        'Kind: captions',
        'Language: en-GB',
        '',
        'STYLE',
        '::cue { color: yellow }',
        '',
        'REGION',
        'id:left width:40%',
        '',
        'NOTE a comment',
        'spanning two lines',
        '',
        'intro-1',
        '00:01.000 --> 00:02.500 align:start position:10%',
        '<c.loud>Hello</c> <i>there</i>',
        'second line',
        '',
        '1:00:00.000 --> 1:00:01.000',
        '<v.host Ana María>Past an hour.',
        '',
      ].join('\n'),
    );
    expect(doc.language).toBe('en-GB');
    expect(doc.segments).toMatchObject([
      { start: 1, end: 2.5, text: 'Hello there second line', speaker: null },
      { start: 3600, end: 3601, text: 'Past an hour.', speaker: 'Ana María' },
    ]);
  });

  it('starts a new cue when a timing line follows without a blank line', () => {
    const doc = parseVtt('WEBVTT\n\n00:00.000 --> 00:01.000\none\n00:01.000 --> 00:02.000\ntwo\n');
    expect(doc.segments.map((s) => s.text)).toEqual(['one', 'two']);
  });

  it('splits a cue with several voices by text length', () => {
    const doc = parseVtt('WEBVTT\n\n00:00.000 --> 00:03.000\n<v A>Hi.</v>\n<v B>Hello there.</v>\n');
    expect(doc.segments).toMatchObject([
      { start: 0, end: 0.6, text: 'Hi.', speaker: 'A' },
      { start: 0.6, end: 3, text: 'Hello there.', speaker: 'B' },
    ]);
  });

  it('sorts cues given out of order', () => {
    const doc = parseVtt('WEBVTT\n\n00:05.000 --> 00:06.000\nlate\n\n00:01.000 --> 00:02.000\nearly\n');
    expect(doc.segments.map((s) => s.text)).toEqual(['early', 'late']);
  });

  it('reads an unreadable "-->" line inside a cue as words, and skips only a cue whose times cannot be read', () => {
    const doc = parseVtt(
      [
        'WEBVTT',
        '',
        '00:00.000 --> 00:01.000',
        '<v Tom & Jerry>Fish &amp; chips &lt;3 are A-->B',
        'and more',
        '',
        '00:01.000 --> soon',
        'lost',
        '',
        'cue-3',
        '00:02.000 --> 00:03.000',
        'kept',
        '',
      ].join('\n'),
    );
    expect(doc.segments).toMatchObject([
      { start: 0, end: 1, text: 'Fish & chips <3 are A-->B and more', speaker: 'Tom & Jerry' },
      { start: 2, end: 3, text: 'kept', speaker: null },
    ]);
  });

  it('keeps the first cue of a file without the blank line after its header', () => {
    const doc = parseVtt('WEBVTT\nKind: captions\n00:00:01.000 --> 00:00:02.000\nfirst\n\n00:00:03.000 --> 00:00:04.000\nsecond\n');
    expect(doc.segments.map((s) => [s.start, s.text])).toEqual([[1, 'first'], [3, 'second']]);
  });

  it('rejects a missing signature and unreadable times, naming the line', () => {
    expect(() => parseVtt('00:00.000 --> 00:01.000\nhi\n')).toThrow(TranscriptParseError);
    expect(() => parseVtt('WEBVTTX\n')).toThrow(/WEBVTT/);
    expect(() => parseVtt('WEBVTT\n\n00:00.000 --> soon\nhi\n')).toThrow(/WebVTT line 3: cannot read the cue times/);
  });

  it('accepts a file with no cues', () => {
    expect(parseVtt('WEBVTT\n').segments).toEqual([]);
  });
});

describe('WebVTT cue text', () => {
  it('decodes named and numeric references, leaving unknown ones', () => {
    expect(decodeCharacterReferences('Q&amp;A &lt;b&gt; &#233;&#x41; &nbsp;&bogus; & x')).toBe('Q&A <b> éA \u00a0&bogus; & x');
  });

  it('drops tags and inline timestamps, keeps a lone "<"', () => {
    expect(readVoiceRuns('<00:00:01.000><c>one</c> <b>two</b> 1 < 2')).toEqual([{ speaker: null, text: 'one two 1 < 2' }]);
  });

  it('keeps words apart across a blank voice', () => {
    expect(readVoiceRuns('<v A>Hello </v><v B> </v><v A>world')).toEqual([{ speaker: 'A', text: 'Hello world' }]);
  });
});
