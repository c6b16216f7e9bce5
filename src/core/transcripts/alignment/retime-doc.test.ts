import { describe, expect, it } from 'vitest';
import type { TranscriptDoc } from '../formats/transcript-doc.js';
import { layoutCues } from '../formats/cue-layout.js';
import { renderJson } from '../formats/render-json.js';
import { renderSrt } from '../formats/render-srt.js';
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

describe('subtitles of a re-timed transcript', () => {
  // One long segment read across a mid-roll inserted at 3.5 s (8 s long) and a cut of 7–9 s.
  const long: TranscriptDoc = {
    language: 'en',
    wordTimesEstimated: false,
    segments: [
      {
        start: 0.5, end: 12, text: 'one two three four five six seven eight', speaker: null,
        words: [{ w: 'one', s: 0.5 }, { w: 'two', s: 1.5 }, { w: 'three', s: 2.5 }, { w: 'four', s: 4 }, { w: 'five', s: 5 }, { w: 'six', s: 7.5 }, { w: 'seven', s: 8.5 }, { w: 'eight', s: 10 }],
      },
    ],
  };
  const midRoll: TimeMap = {
    pieces: [
      { refStart: 0, refEnd: 3.5, offset: 0 },
      { refStart: 3.5, refEnd: 7, offset: 8 },
      { refStart: 9, refEnd: 12, offset: 6 },
    ],
    inserted: [{ start: 3.5, end: 11.5 }],
    removed: [{ refStart: 7, refEnd: 9, at: 15 }],
    referenceSeconds: 12,
    audioSeconds: 18,
  };

  it('leave out the words cut from the audio and show no cue through the ad', () => {
    const doc = retimeDoc(long, midRoll, new Date('2026-11-25T03:00:00Z'));
    const cues = layoutCues(doc, { labelTurns: false });
    expect(cues.map((c) => c.lines.join(' '))).toEqual(['one two three', 'four five', 'eight']);
    expect(cues[0]).toMatchObject({ start: 0.5, end: 3.5 });
    expect(cues[1]).toMatchObject({ start: 12, end: 15 });
    expect(cues[2]).toMatchObject({ start: 16, end: 18 });
    const srt = renderSrt(doc);
    expect(srt).not.toMatch(/six|seven/);
    expect(srt).toContain('00:00:00,500 --> 00:00:03,500');
    // The JSON still has every word, the cut ones marked.
    expect(doc.segments[0]!.words.filter((w) => w.removed).map((w) => w.w)).toEqual(['six', 'seven']);
  });

  it('leave a transcript never re-timed as it was', () => {
    expect(layoutCues(long, { labelTurns: false }).map((c) => c.lines.join(' '))).toEqual(['one two three four five six seven eight']);
  });
});
