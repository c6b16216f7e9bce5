import { describe, expect, it } from 'vitest';
import { parseJsonTranscript } from './parse-json-transcript.js';

const entries = (list: unknown[]) => JSON.stringify({ version: '1.0.0', segments: list });

describe('parseJsonTranscript', () => {
  it('ends a word group at a pause, a speaker change or 40 words', () => {
    const words = Array.from({ length: 45 }, (_, i) => ({ speaker: 'A', startTime: i, endTime: i + 0.5, body: `w${i}` }));
    words.push({ speaker: 'A', startTime: 50, endTime: 50.5, body: 'after-pause' });
    words.push({ speaker: 'B', startTime: 51, endTime: 51.5, body: 'other' });
    const doc = parseJsonTranscript(entries(words));
    expect(doc.segments.map((s) => s.words.length)).toEqual([40, 5, 1, 1]);
    expect(doc.segments[1]).toMatchObject({ start: 40, end: 44.5, speaker: 'A' });
    expect(doc.wordTimesEstimated).toBe(false);
  });

  it('keeps phrase entries as segments with estimated words', () => {
    const doc = parseJsonTranscript(
      entries([
        { startTime: '00:00:01.000', endTime: '2', body: 'A whole phrase.' },
        { startTime: 3, body: 'word' },
      ]),
    );
    expect(doc.segments).toMatchObject([
      { start: 1, end: 2, text: 'A whole phrase.', speaker: null },
      { start: 3, end: 3, text: 'word' },
    ]);
    expect(doc.wordTimesEstimated).toBe(true);
  });

  it('ends a phrase without endTime where the next one starts, the last after its words', () => {
    const doc = parseJsonTranscript(
      entries([
        { speaker: 'A', startTime: 0, body: 'Welcome back to the show.' },
        { speaker: 'B', startTime: 4.5, body: 'Thanks for having me.' },
        { speaker: 'A', startTime: 9, body: 'Let us begin.' },
      ]),
    );
    // 'Let us begin.' is three words at 150 a minute.
    expect(doc.segments.map((s) => [s.start, s.end])).toEqual([[0, 4.5], [4.5, 9], [9, 10.2]]);
  });

  it('sorts entries given out of order and skips blank bodies', () => {
    const doc = parseJsonTranscript(
      entries([
        { startTime: 2, endTime: 2.5, body: 'world.' },
        { startTime: 1, endTime: 1.5, body: 'Hello' },
        { startTime: 1.7, endTime: 1.8, body: ' ' },
      ]),
    );
    expect(doc.segments.map((s) => s.text)).toEqual(['Hello world.']);
  });

  it('reads a top-level language and a bare array', () => {
    expect(parseJsonTranscript(JSON.stringify({ language: 'de', segments: [] })).language).toBe('de');
    expect(parseJsonTranscript(JSON.stringify([{ startTime: 0, endTime: 1, body: 'hi' }])).segments).toHaveLength(1);
  });

  it.each([
    ['null', /"segments" array/],
    [entries([3]), /segments\[0\] is not an object/],
    [entries([{ endTime: 1, body: 'x' }]), /segments\[0\]\.startTime/],
    [entries([{ startTime: -1, body: 'x' }]), /segments\[0\]\.startTime/],
    [entries([{ startTime: 0, endTime: 'later', body: 'x' }]), /segments\[0\]\.endTime/],
    [entries([{ startTime: 0, body: 7 }]), /segments\[0\]\.body must be a string/],
  ])('rejects %s', (json, message) => {
    expect(() => parseJsonTranscript(json)).toThrow(message);
  });
});
