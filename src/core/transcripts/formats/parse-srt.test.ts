import { describe, expect, it } from 'vitest';
import { parseSrt } from './parse-srt.js';
import { renderText } from './render-text.js';
import { renderVtt } from './render-vtt.js';
import { takeSpeakerPrefix } from './speaker-prefix.js';
import { TranscriptParseError } from './transcript-parse-error.js';

describe('parseSrt', () => {
  it('joins cue lines, strips formatting tags and reads dot or comma times', () => {
    const doc = parseSrt('1\n00:00:01,000 --> 00:00:02.500 X1:10 X2:20\n<i>Hello</i> {\\an8}<font color="red">there</font>\n<laughs>\n\n');
    expect(doc.segments).toMatchObject([{ start: 1, end: 2.5, text: 'Hello there <laughs>', speaker: null }]);
  });

  it('decodes the character references HTML-minded tools write, once, after the tags', () => {
    const doc = parseSrt('1\n00:00:01,000 --> 00:00:02,000\nFish &amp; chips &#39;n&#x27; &quot;peas&quot;\n<i>&lt;laughs&gt;</i> &amp;lt; &bogus;\n');
    expect(doc.segments[0]!.text).toBe('Fish & chips \'n\' "peas" <laughs> &lt; &bogus;');
    // Read back as the user reads it: one escape in WebVTT, none in text.
    expect(renderVtt(doc)).toContain('Fish &amp; chips \'n\' "peas"\n&lt;laughs&gt; &amp;lt; &amp;bogus;\n');
    expect(renderText(doc)).toBe('Fish & chips \'n\' "peas" <laughs> &lt; &bogus;\n');
  });

  it('carries a speaker label to later cues until the next label', () => {
    const doc = parseSrt(
      '1\n00:00:00,000 --> 00:00:01,000\nintro music\n\n' +
        '2\n00:00:01,000 --> 00:00:02,000\nAna: Hi.\n\n' +
        '3\n00:00:02,000 --> 00:00:03,000\nStill me.\n\n' +
        '4\n00:00:03,000 --> 00:00:04,000\nSpeaker 2: Hello.\n',
    );
    expect(doc.segments.map((s) => [s.speaker, s.text])).toEqual([
      [null, 'intro music'],
      ['Ana', 'Hi.'],
      ['Ana', 'Still me.'],
      ['Speaker 2', 'Hello.'],
    ]);
  });

  it('keeps numbers that are text, and text after a stray blank line', () => {
    const doc = parseSrt('1\n00:00:00,000 --> 00:00:01,000\nThe answer is\n\n42\n\n2\n00:00:01,000 --> 00:00:02,000\nyes\n');
    expect(doc.segments.map((s) => s.text)).toEqual(['The answer is 42', 'yes']);
  });

  it('handles hour-plus times and unsorted cues', () => {
    const doc = parseSrt('2\n10:00:00,000 --> 10:00:01,000\nlate\n\n1\n01:00:00,000 --> 01:00:01,000\nearly\n');
    expect(doc.segments.map((s) => [s.start, s.text])).toEqual([
      [3600, 'early'],
      [36_000, 'late'],
    ]);
  });

  it('reads an unreadable "-->" line inside a cue as words, and skips only a cue whose times cannot be read', () => {
    const doc = parseSrt(
      '1\n00:00:00,000 --> 00:00:01,000\nFish & chips\nA-->B, they said\n\n' +
        '2\n00:00:01,000 --> 00:99:00,000\nlost\n\n' +
        '3\n00:00:02,000 --> 00:00:03,000\nkept\n',
    );
    expect(doc.segments.map((s) => [s.start, s.text])).toEqual([
      [0, 'Fish & chips A-->B, they said'],
      [2, 'kept'],
    ]);
  });

  it('rejects text with no cues and unreadable times, naming the line', () => {
    expect(() => parseSrt('just words\n')).toThrow(TranscriptParseError);
    expect(() => parseSrt('1\n00:00:00,000 --> 00:99:00,000\nhi\n')).toThrow(/SRT line 2/);
    expect(parseSrt('').segments).toEqual([]);
  });
});

describe('takeSpeakerPrefix', () => {
  it.each([
    ['Travis: When you first get', 'Travis', 'When you first get'],
    ['Speaker 1: hi', 'Speaker 1', 'hi'],
    ['Dr. Jane Smith: yes', 'Dr. Jane Smith', 'yes'],
    ['Ana María: hola', 'Ana María', 'hola'],
  ])('reads %j', (line, speaker, rest) => {
    expect(takeSpeakerPrefix(line)).toEqual({ speaker, rest });
  });

  it.each(['note that: this', 'At 10:30 we met', 'Travis:', 'Here is what I think about this: no', 'Travis:no space'])(
    'leaves %j alone',
    (line) => {
      expect(takeSpeakerPrefix(line)).toBeNull();
    },
  );
});
