import type { DocAlignment, Segment, TranscriptDoc } from '../formats/transcript-doc.js';
import { mapTime, type TimeMap } from './time-map.js';

const ms = (x: number) => Math.round(x * 1000) / 1000;

/** What the transcript says about the audio its times match once re-timed by `map`. */
export function docAlignment(map: TimeMap, checkedAt: Date): DocAlignment {
  return {
    audioSeconds: ms(map.audioSeconds),
    checkedAt: checkedAt.toISOString(),
    adBreaks: map.inserted.map((s) => ({ start: ms(s.start), end: ms(s.end) })),
    removed: map.removed.map((r) => ({ at: ms(r.at), seconds: ms(r.refEnd - r.refStart) })),
  };
}

/**
 * The transcript on the current audio's clock: every segment and word of
 * `base` (times on the reference clock) moved through `map`. Words inside a
 * removed stretch are kept, placed at the cut and marked `removed`, so a
 * reader sees that the audio no longer has them rather than a silent shift.
 */
export function retimeDoc(base: TranscriptDoc, map: TimeMap, checkedAt: Date): TranscriptDoc {
  const segments: Segment[] = base.segments.map((seg) => {
    const start = mapTime(map, seg.start).t;
    const end = Math.max(start, mapTime(map, seg.end).t);
    const words = seg.words.map((w) => {
      const m = mapTime(map, w.s);
      return m.removed ? { w: w.w, s: ms(m.t), removed: true as const } : { w: w.w, s: ms(m.t) };
    });
    return { ...seg, start: ms(start), end: ms(end), words };
  });
  return { segments, language: base.language, wordTimesEstimated: base.wordTimesEstimated, alignment: docAlignment(map, checkedAt) };
}

/** The document without what a re-timing added: the reference-clock original. */
export function withoutAlignment(doc: TranscriptDoc): TranscriptDoc {
  const { alignment: _dropped, ...rest } = doc;
  return rest;
}
