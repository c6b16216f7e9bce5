import { ENVELOPE_RATE, ITEM_HEARS_SECONDS, ITEM_SECONDS } from '../../../infra/audio/fingerprint.js';
import { matchRuns, WINDOW_ITEMS } from './match-fingerprints.js';
import { placeShortHead } from './place-short-head.js';
import { placeShortTail } from './place-short-tail.js';
import { type RefinedOffset, refineFirstStart, refineLastEnd, refineOffset, refineSplice } from './refine-boundaries.js';
import type { InsertedStretch, MatchedPiece, RemovedStretch, TimeMap } from './time-map.js';

/** What alignment needs of a fingerprinted file. */
export interface AudioPrint {
  items: Uint32Array;
  envelope: Uint8Array;
  seconds: number;
}

export type Alignment =
  | { kind: 'mapped'; map: TimeMap; coverage: number; ber: number }
  /** The current audio is not the transcribed episode (re-spliced or not): nothing is re-mapped. */
  | { kind: 'different'; reason: string; coverage: number }
  /** Too unsure to move any time: the old times stay. */
  | { kind: 'low_confidence'; reason: string; coverage: number };

/** Below this share of the reference found again, the file is another recording. */
const DIFFERENT_BELOW = 0.25;
/** Below this share (and above the one before), too much is unexplained to re-time with confidence. */
const CONFIDENT_FROM = 0.6;
/** Highest mean bit-error rate of matched stretches trusted. */
const MAX_MEAN_BER = 0.22;
/** Lowest envelope correlation of a stretch of speech trusted. */
const MIN_CORRELATION = 0.5;
/** Removed stretches shorter than this are the ambiguous edges of a pause, not cuts (s). */
const MIN_REMOVED = 0.5;
/** Inserted stretches shorter than this are rounding (s). */
const MIN_INSERTED = 0.05;

const round3 = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Aligns the current audio to the reference the transcript was made on:
 * chromaprint windows find the stretches that repeat the reference (a
 * monotonic chain of rate-1 anchors), the loudness envelopes refine each
 * stretch's offset and each splice to hundredths of a second, and what is
 * left over becomes inserted (current) and removed (reference) stretches.
 */
export function alignAudio(reference: AudioPrint, current: AudioPrint): Alignment {
  const runs = matchRuns(reference.items, current.items);
  const shortTail = runs.length > 0 ? placeShortTail(reference, current, runs[runs.length - 1]!) : null;
  if (shortTail) runs.push(shortTail);
  const shortHead = runs.length > 0 ? placeShortHead(reference, current, runs[0]!) : null;
  if (shortHead) runs.unshift(shortHead);
  const F = ENVELOPE_RATE;
  const toFrames = (items: number) => items * ITEM_SECONDS * F;
  // Item k hears the audio from k·ITEM_SECONDS on for ITEM_HEARS_SECONDS: a
  // stretch of matching items is the audio under their middles. Read from
  // their starts, a short stretch after a splice would reach back over it.
  const refFrames = (items: number) => (items * ITEM_SECONDS + ITEM_HEARS_SECONDS / 2) * F;
  const matchedItems = runs.reduce((n, r) => n + (r.curEnd - r.curStart), 0);
  const coarseCoverage = Math.min(1, matchedItems / Math.max(1, reference.items.length));
  if (runs.length === 0 || coarseCoverage < DIFFERENT_BELOW) {
    return { kind: 'different', coverage: coarseCoverage, reason: `only ${Math.round(coarseCoverage * 100)} % of the transcribed audio was found in the file served now` };
  }
  const ref = reference.envelope;
  const cur = current.envelope;
  const span = toFrames(WINDOW_ITEMS) + F;
  const offsets: RefinedOffset[] = runs.map((r) =>
    refineOffset(ref, cur, refFrames(r.curStart - r.offset), refFrames(r.curEnd - r.offset), toFrames(r.offset)),
  );
  const weak = offsets.findIndex((o, i) => o.correlation !== null && o.correlation < MIN_CORRELATION && runs[i]!.curEnd - runs[i]!.curStart > WINDOW_ITEMS * 2);
  if (weak >= 0) {
    return { kind: 'low_confidence', coverage: coarseCoverage, reason: `a matched stretch's loudness agrees poorly (correlation ${offsets[weak]!.correlation!.toFixed(2)})` };
  }

  // Reference frames where each stretch starts and ends.
  const starts: number[] = [];
  const ends: number[] = [];
  starts[0] = refineFirstStart(ref, cur, offsets[0]!, toFrames(runs[0]!.curStart - runs[0]!.offset), span, toFrames(runs[0]!.curEnd - runs[0]!.offset));
  for (let i = 0; i + 1 < runs.length; i++) {
    const splice = refineSplice(ref, cur, offsets[i]!, offsets[i + 1]!, toFrames(runs[i]!.curEnd - runs[i]!.offset), toFrames(runs[i + 1]!.curStart - runs[i + 1]!.offset), span, starts[i]!);
    ends[i] = splice.end;
    starts[i + 1] = splice.start;
  }
  const last = runs.length - 1;
  ends[last] = refineLastEnd(ref, cur, offsets[last]!, toFrames(runs[last]!.curEnd - runs[last]!.offset), span, starts[last]!);

  const refSeconds = reference.seconds;
  const curSeconds = current.seconds;
  const pieces: MatchedPiece[] = runs.map((_, i) => ({ refStart: starts[i]! / F, refEnd: ends[i]! / F, offset: offsets[i]!.offset / F }));
  // Short unexplained edges are pauses that either side may claim.
  const first = pieces[0]!;
  if (first.refStart - Math.max(0, -first.offset) < MIN_REMOVED) first.refStart = Math.max(0, -first.offset);
  const tail = pieces[last]!;
  const tailLimit = Math.min(refSeconds, curSeconds - tail.offset);
  if (tailLimit - tail.refEnd < MIN_REMOVED) tail.refEnd = tailLimit;
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    if (b.refStart - a.refEnd < MIN_REMOVED) {
      // Ads go into pauses: where in the pause the splice falls moves no word.
      const lost = Math.max(0, a.offset - b.offset);
      const cut = Math.max(a.refStart, (a.refEnd + b.refStart - lost) / 2);
      a.refEnd = cut;
      b.refStart = cut + lost;
    }
  }

  const inserted: InsertedStretch[] = [];
  const removed: RemovedStretch[] = [];
  const addInserted = (start: number, end: number) => {
    if (end - start >= MIN_INSERTED) inserted.push({ start: round3(Math.max(0, start)), end: round3(Math.min(curSeconds, end)) });
  };
  const addRemoved = (refStart: number, refEnd: number, at: number) => {
    if (refEnd - refStart >= MIN_REMOVED) removed.push({ refStart: round3(refStart), refEnd: round3(refEnd), at: round3(Math.max(0, at)) });
  };
  addRemoved(0, first.refStart, first.refStart + first.offset);
  addInserted(0, first.refStart + first.offset);
  for (let i = 0; i + 1 < pieces.length; i++) {
    const a = pieces[i]!;
    const b = pieces[i + 1]!;
    addRemoved(a.refEnd, b.refStart, a.refEnd + a.offset);
    addInserted(a.refEnd + a.offset, b.refStart + b.offset);
  }
  addRemoved(tail.refEnd, refSeconds, tail.refEnd + tail.offset);
  addInserted(tail.refEnd + tail.offset, curSeconds);

  const matchedSeconds = pieces.reduce((s, p) => s + Math.max(0, p.refEnd - p.refStart), 0);
  const coverage = Math.min(1, matchedSeconds / Math.max(0.001, refSeconds));
  const ber = runs.reduce((s, r) => s + r.ber * (r.curEnd - r.curStart), 0) / Math.max(1, matchedItems);
  if (coverage < DIFFERENT_BELOW) {
    return { kind: 'different', coverage, reason: `only ${Math.round(coverage * 100)} % of the transcribed audio was found in the file served now` };
  }
  if (coverage < CONFIDENT_FROM) {
    return { kind: 'low_confidence', coverage, reason: `only ${Math.round(coverage * 100)} % of the transcribed audio was found again; ${CONFIDENT_FROM * 100} % is needed to re-time` };
  }
  if (ber > MAX_MEAN_BER) {
    return { kind: 'low_confidence', coverage, reason: `matched stretches differ in ${Math.round(ber * 100)} % of fingerprint bits (at most ${MAX_MEAN_BER * 100} % trusted)` };
  }
  const map: TimeMap = {
    pieces: pieces.map((p) => ({ refStart: round3(p.refStart), refEnd: round3(p.refEnd), offset: round3(p.offset) })),
    inserted,
    removed,
    referenceSeconds: round3(refSeconds),
    audioSeconds: round3(curSeconds),
  };
  return { kind: 'mapped', map, coverage, ber };
}
