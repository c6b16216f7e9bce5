import { describe, expect, it } from 'vitest';
import { parsePlainText } from './parse-plain-text.js';
import { parseSrt } from './parse-srt.js';
import { renderTranscript } from './render-transcript.js';
import type { TranscriptMeta } from './render-json.js';

const plain = parsePlainText('Host: This is a plain text transcript.\n\nGuest: With two paragraphs, and a second sentence here.');
const meta = (durationSeconds: number | null): TranscriptMeta => ({ transcriptId: 'a'.repeat(16), title: 'T', audioUrl: null, language: 'en', source: 'publisher', engine: null, model: null, version: 1, durationSeconds });

function cueTimes(srt: string): [number, number][] {
  const seconds = (t: string) => { const [h, m, s] = t.replace(',', '.').split(':').map(Number); return h! * 3600 + m! * 60 + s!; };
  return [...srt.matchAll(/(\d\d:\d\d:\d\d,\d{3}) --> (\d\d:\d\d:\d\d,\d{3})/g)].map((m) => [seconds(m[1]!), seconds(m[2]!)]);
}

describe('a transcript without times, in timed formats', () => {
  it('gives subtitles in order over the episode, none overlapping, the last ending with the audio', () => {
    for (const format of ['srt', 'vtt'] as const) {
      const times = cueTimes(renderTranscript(plain, meta(9), format).replaceAll('.', ','));
      expect(times.length).toBeGreaterThanOrEqual(2);
      expect(times[0]![0]).toBe(0);
      for (let i = 1; i < times.length; i++) expect(times[i]![0]).toBeGreaterThanOrEqual(times[i - 1]![1]);
      expect(times.at(-1)![1]).toBeCloseTo(9, 2);
    }
  });

  it('spreads JSON segment and word times too, still marked estimated; without a length, reading time stands in', () => {
    const json = JSON.parse(renderTranscript(plain, meta(null), 'json', { timestamps: true, words: true })) as { word_times_estimated: boolean; segments: { start: number; end: number; words: { s: number }[] }[] };
    expect(json.word_times_estimated).toBe(true);
    expect(json.segments[0]!.start).toBe(0);
    expect(json.segments[1]!.start).toBeGreaterThan(1);
    expect(json.segments[1]!.start).toBe(json.segments[0]!.end);
    const starts = json.segments.flatMap((s) => s.words.map((w) => w.s));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    expect(new Set(starts).size).toBe(starts.length);
  });

  it('keeps the source paragraphs in text, and leaves timed transcripts as they are', () => {
    expect(renderTranscript(plain, meta(9), 'text')).toBe('Host: This is a plain text transcript.\n\nGuest: With two paragraphs, and a second sentence here.\n');
    const timed = parseSrt('1\n00:00:05,000 --> 00:00:07,000\nHello there.\n');
    expect(cueTimes(renderTranscript(timed, meta(9), 'srt'))).toEqual([[5, 7]]);
  });
});
