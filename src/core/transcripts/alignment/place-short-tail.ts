import { ENVELOPE_RATE, ITEM_SECONDS } from '../../../infra/audio/fingerprint.js';
import type { AudioPrint } from './align-audio.js';
import { type ItemRun, itemRun } from './match-fingerprints.js';
import { pearson } from './refine-boundaries.js';

/** Most of the reference's end compared, in seconds: enough to place a sentence, little enough to skip an ad the reference had before it. */
const MAX_TAIL_SECONDS = 8;
/** Shortest end worth placing, in seconds. */
const MIN_TAIL_SECONDS = 2;
/** Farthest the end may have moved past the last stretch found (an ad after it), in seconds. */
const MAX_SHIFT_SECONDS = 180;
/** Lowest loudness correlation that places it: speech against other speech stays well under. */
const MIN_CORRELATION = 0.85;

/**
 * The audio after an ad a few seconds before the end of a file: every
 * fingerprint item hears the 2.7 s from its start on, so the file's last
 * seconds have few items of their own and no 3 s window lies wholly in
 * such an end. When both files go on after the last stretch found, the
 * reference's end (as much of it as the current end could hold) is looked
 * for in the current end by its loudness envelope, and becomes one more run
 * for the usual refinement. Null when it is not found convincingly.
 */
export function placeShortTail(reference: AudioPrint, current: AudioPrint, last: ItemRun): ItemRun | null {
  const F = ENVELOPE_RATE;
  const perItem = ITEM_SECONDS * F;
  const ref = reference.envelope;
  const cur = current.envelope;
  const curItems = current.items.length;
  if (reference.items.length - (last.curEnd - last.offset) < 4 || curItems - last.curEnd < 4) return null;
  const refFrom = Math.round((last.curEnd - last.offset) * perItem);
  const curFrom = Math.round(last.curEnd * perItem);
  const length = Math.min(ref.length - refFrom, cur.length - curFrom, MAX_TAIL_SECONDS * F);
  if (length < MIN_TAIL_SECONDS * F) return null;
  const from = ref.length - length;
  // Monotonic: after the last stretch in both files (an ad inserted before the end, or one the reference had cut out).
  const lowest = curFrom - from;
  const highest = Math.min(cur.length - ref.length, lowest + MAX_SHIFT_SECONDS * F);
  let best: { lag: number; r: number } | null = null;
  for (let lag = lowest; lag <= highest; lag++) {
    const r = pearson(ref, cur, from, ref.length, lag);
    if (r !== null && (!best || r > best.r)) best = { lag, r };
  }
  if (!best || best.r < MIN_CORRELATION) return null;
  const offset = Math.round(best.lag / perItem);
  const curStart = Math.max(last.curEnd, Math.floor(from / perItem) + offset);
  if (curStart >= curItems) return null;
  return itemRun(reference.items, current.items, curStart, curItems, offset);
}
