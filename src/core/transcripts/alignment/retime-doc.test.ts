import { describe, expect, it } from 'vitest';
import type { TranscriptDoc } from '../formats/transcript-doc.js';
import { renderJson } from '../formats/render-json.js';
import { retimeDoc, withoutAlignment } from './retime-doc.js';
import type { TimeMap } from './time-map.js';

const base: TranscriptDoc = {
  language: 'en',
  wordTimesEstimated: false,
  segments: [
    { start: 1, end: 3, text: 'before the cut', speaker: null, words: [{ w: 'before', s: 1 }, { w: 'the', s: 1.5 }, { w: 'cut', s: 2 }] },
    { start: 10, end: 12, text: 'gone now', speaker: null, words: [{ w: 'gone', s: 10.2 }, { w: 'now', s: 11 }] },
    { start: 20, end: 22, text: 'after it', speaker: 'Ann', words: [{ w: 'after', s: 20 }, { w: 'it', s: 21 }] },
  ],
};

// A 5 s pre-roll inserted; the reference's 9–13 s cut out (now at 14 s).
const map: TimeMap = {
  pieces: [
    { refStart: 0, refEnd: 9, offset: 5 },
    { refStart: 13, refEnd: 30, offset: 1 },
  ],
  inserted: [{ start: 0, end: 5 }],
  removed: [{ refStart: 9, refEnd: 13, at: 14 }],
  referenceSeconds: 30,
  audioSeconds: 31,
};

describe('re-timing a transcript through a time map', () => {
  it('moves words, marks the removed ones at the cut, and says which audio the times match', () => {
    const doc = retimeDoc(base, map, new Date('2026-11-25T03:00:00Z'));
    expect(doc.segments.map((s) => s.words)).toEqual([
      [{ w: 'before', s: 6 }, { w: 'the', s: 6.5 }, { w: 'cut', s: 7 }],
      [{ w: 'gone', s: 14, removed: true }, { w: 'now', s: 14, removed: true }],
      [{ w: 'after', s: 21 }, { w: 'it', s: 22 }],
    ]);
    expect(doc.segments[2]).toMatchObject({ start: 21, end: 23, speaker: 'Ann' });
    const json = renderJson(doc, { transcriptId: 'a'.repeat(16), title: 'T', audioUrl: null, language: null, source: 'asr', engine: null, model: null, version: 2, durationSeconds: 31 }, { timestamps: true, words: true });
    expect(json.alignment).toEqual({ audio_seconds: 31, checked_at: '2026-11-25T03:00:00.000Z', ad_breaks: [{ start: 0, end: 5 }], removed: [{ at: 14, seconds: 4 }] });
    expect(json.segments![1]!.words![0]).toEqual({ w: 'gone', s: 14, removed: true });
    expect(withoutAlignment(doc).alignment).toBeUndefined();
  });
});
