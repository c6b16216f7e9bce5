import { ENVELOPE_RATE, ITEM_HEARS_SECONDS, ITEM_SECONDS } from '../../../infra/audio/fingerprint.js';
import type { AudioPrint } from './align-audio.js';
import { type ItemRun, itemRun } from './match-fingerprints.js';
import { pearson } from './refine-boundaries.js';

/** Most of the reference's opening compared, in seconds. */
const MAX_HEAD_SECONDS = 8;
/** Shortest opening worth placing, in seconds. */
const MIN_HEAD_SECONDS = 1.5;
/** Lowest loudness correlation that places it. */
const MIN_CORRELATION = 0.85;

/**
 * The mirror of `placeShortTail`: a short opening before the first stretch
 * found (a few seconds of welcome, then an ad) has no 3 s window of items
 * of its own either. When both files have audio before the first stretch,
 * the reference's audio just before it is looked for in the current
 * opening by its loudness envelope. Null when not found convincingly.
 */
export function placeShortHead(reference: AudioPrint, current: AudioPrint, first: ItemRun): ItemRun | null {
  const F = ENVELOPE_RATE;
  const perItem = ITEM_SECONDS * F;
  const ref = reference.envelope;
  const cur = current.envelope;
  if (first.curStart - first.offset < 4 || first.curStart < 4) return null;
  // The first run's windows reach back over the splice by what an item hears: stop short of it in the reference.
  const refTo = Math.min(ref.length, Math.round((first.curStart - first.offset) * perItem - ITEM_HEARS_SECONDS * F));
  const curTo = Math.min(cur.length, Math.round(first.curStart * perItem + ITEM_HEARS_SECONDS * F));
  const length = Math.min(refTo, curTo, MAX_HEAD_SECONDS * F);
  if (length < MIN_HEAD_SECONDS * F) return null;
  const from = refTo - length;
  let best: { lag: number; r: number } | null = null;
  for (let lag = -from; lag <= curTo - refTo; lag++) {
    const r = pearson(ref, cur, from, refTo, lag);
    if (r !== null && (!best || r > best.r)) best = { lag, r };
  }
  if (!best || best.r < MIN_CORRELATION) return null;
  const offset = Math.round(best.lag / perItem);
  const curStart = Math.max(0, offset);
  const curEnd = Math.min(first.curStart, Math.max(curStart + 1, Math.ceil(refTo / perItem) + offset));
  if (curEnd - curStart < 1) return null;
  return itemRun(reference.items, current.items, curStart, curEnd, offset);
}
