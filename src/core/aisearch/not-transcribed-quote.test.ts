import { describe, expect, it } from 'vitest';
import { notTranscribedError, quoteNotTranscribed } from './not-transcribed-quote.js';
import { CorruptTranscriptError, toSearchable } from './stored-document.js';

describe('the 409 quote for an episode without a transcript', () => {
  it('is transcription by the price table plus the query', () => {
    expect(quoteNotTranscribed(2 * 3600 + 35 * 60)).toEqual({ transcriptionCredits: 3, queryCredits: 1, total: 4, durationSeconds: 9300 });
    expect(quoteNotTranscribed(5399).total).toBe(2);
    expect(quoteNotTranscribed(5400).total).toBe(3);
    expect(quoteNotTranscribed(600).total).toBe(2);
  });

  it('quotes the minimum when the length is unknown, and says so', () => {
    expect(quoteNotTranscribed(null)).toEqual({ transcriptionCredits: 1, queryCredits: 1, total: 2, durationSeconds: null });
    expect(quoteNotTranscribed(0).durationSeconds).toBeNull();
    expect(notTranscribedError('0123456789abcdef', null, 'none').message).toContain('its length is not known yet');
  });

  it('carries the figures in details and notes a transcription under way', () => {
    const e = notTranscribedError('0123456789abcdef', 3600, 'processing');
    expect(e.code).toBe('not_transcribed');
    expect(e.details).toEqual({ transcription_credits: 1, query_credits: 1, total_credits: 2, duration_seconds: 3600 });
    expect(e.message).toContain('1 hour of audio, billed as 1 hour');
    expect(e.message).toContain('being transcribed now');
    expect(e.message).not.toContain('POST /requests');
  });

  it('states the length without rounding it past a billing boundary', () => {
    expect(notTranscribedError('0123456789abcdef', 5399, 'none').message).toContain('1 hour 29 minutes 59 seconds of audio, billed as 1 hour');
    expect(notTranscribedError('0123456789abcdef', 5400, 'none').message).toContain('1 hour 30 minutes of audio, billed as 2 hours');
    expect(notTranscribedError('0123456789abcdef', 8, 'none').message).toContain('8 seconds of audio, billed as 1 hour');
  });
});

describe('reading a stored document for search', () => {
  it('refuses a document that is not a transcript', () => {
    for (const bad of [null, {}, { segments: 'lost' }, { segments: [{ start: 0, end: 1 }] }]) {
      expect(() => toSearchable(bad)).toThrow(CorruptTranscriptError);
    }
  });

  it('keeps times, and drops the zeros of a document with no timing at all', () => {
    const timed = toSearchable({ segments: [{ start: 1.5, end: 3, text: 'Hi there.', speaker: null, words: [{ w: 'Hi', s: 1.5 }, { w: 'bad' }] }], language: 'en' });
    expect(timed.segments[0]).toEqual({ start: 1.5, end: 3, text: 'Hi there.', speaker: null, words: [{ w: 'Hi', s: 1.5 }] });
    const untimed = toSearchable({ segments: [{ start: 0, end: 0, text: 'Hi.', speaker: 'A', words: [{ w: 'Hi.', s: 0 }] }], language: null });
    expect(untimed.segments[0]).toMatchObject({ start: Number.NaN, end: Number.NaN, words: [] });
  });
});
