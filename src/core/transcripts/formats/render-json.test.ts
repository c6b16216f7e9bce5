import { describe, expect, it } from 'vitest';
import { buildDoc } from './build-doc.js';
import { parsePlainText } from './parse-plain-text.js';
import { renderJson, type TranscriptMeta } from './render-json.js';
import { contentTypes, isTranscriptFormat, renderTranscript } from './render-transcript.js';

const meta: TranscriptMeta = {
  transcriptId: '0123456789abcdef',
  title: 'Episode 1',
  audioUrl: 'https://example.com/ep1.mp3',
  language: null,
  source: 'asr',
  engine: 'whisper',
  model: 'small.en',
  version: 2,
  durationSeconds: 61.5,
};

const doc = buildDoc(
  [
    { start: 0, end: 1, text: 'Hello there.', speaker: 'Ana' },
    { start: 1, end: 2, text: 'How are you?', speaker: 'Ana' },
    { start: 2, end: 3, text: 'Fine.', speaker: null },
  ],
  'en',
);

describe('renderJson', () => {
  it('gives the plain shape without timestamps', () => {
    expect(renderJson(doc, meta, { timestamps: false, words: true })).toEqual({
      transcript_id: '0123456789abcdef',
      title: 'Episode 1',
      audio_url: 'https://example.com/ep1.mp3',
      language: 'en',
      source: 'asr',
      engine: 'whisper',
      model: 'small.en',
      version: 2,
      duration_seconds: 61.5,
      word_times_estimated: true,
      text: 'Hello there. How are you?\n\nFine.',
      paragraphs: [
        { speaker: 'Ana', text: 'Hello there. How are you?' },
        { speaker: null, text: 'Fine.' },
      ],
    });
  });

  it('adds segments with timestamps, speaker only when known, words only when asked', () => {
    const timed = renderJson(doc, { ...meta, language: 'en-US' }, { timestamps: true, words: false });
    expect(timed.language).toBe('en-US');
    expect(timed.segments).toEqual([
      { start: 0, end: 1, text: 'Hello there.', speaker: 'Ana' },
      { start: 1, end: 2, text: 'How are you?', speaker: 'Ana' },
      { start: 2, end: 3, text: 'Fine.' },
    ]);
    const worded = renderJson(doc, meta, { timestamps: true, words: true });
    expect(worded.segments?.[2]).toEqual({ start: 2, end: 3, text: 'Fine.', words: [{ w: 'Fine.', s: 2 }] });
  });

  it('renders an empty document', () => {
    const empty = renderJson(buildDoc([]), meta, { timestamps: true, words: true });
    expect(empty).toMatchObject({ text: '', paragraphs: [], segments: [], language: null, word_times_estimated: false });
  });
});

describe('renderTranscript', () => {
  it("keeps a plain-text source's paragraphs in JSON as in text, though its times are laid out over the episode", () => {
    const plain = parsePlainText('First paragraph.\n\nSecond paragraph.\n\nThird paragraph.');
    const json = JSON.parse(renderTranscript(plain, { ...meta, source: 'publisher' }, 'json', { timestamps: true, words: false }));
    expect(json.paragraphs).toEqual([
      { speaker: null, text: 'First paragraph.' },
      { speaker: null, text: 'Second paragraph.' },
      { speaker: null, text: 'Third paragraph.' },
    ]);
    expect(json.text).toBe(renderTranscript(plain, meta, 'text').trim());
    expect(json.segments.at(-1).end).toBeGreaterThan(30);
  });

  it('serves JSON as the same object, and every format with its content type', () => {
    expect(JSON.parse(renderTranscript(doc, meta, 'json'))).toEqual(renderJson(doc, meta, { timestamps: false, words: false }));
    expect(renderTranscript(doc, meta, 'text')).toBe(renderTranscript(doc, meta, 'txt'));
    expect(renderTranscript(doc, meta, 'srt')).toMatch(/^1\n00:00:00,000 --> /);
    expect(renderTranscript(doc, meta, 'vtt')).toMatch(/^WEBVTT\n\n/);
    expect(contentTypes).toEqual({
      json: 'application/json; charset=utf-8',
      text: 'text/plain; charset=utf-8',
      txt: 'text/plain; charset=utf-8',
      srt: 'application/x-subrip; charset=utf-8',
      vtt: 'text/vtt; charset=utf-8',
    });
  });

  it('recognises the format names', () => {
    expect(['json', 'text', 'txt', 'srt', 'vtt'].every(isTranscriptFormat)).toBe(true);
    expect(isTranscriptFormat('toString')).toBe(false);
    expect(isTranscriptFormat('html')).toBe(false);
  });
});
