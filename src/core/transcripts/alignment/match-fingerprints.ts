/**
 * Coarse alignment of two chromaprint raw fingerprints: which stretches of
 * the current audio repeat the reference, and at which whole-item offset.
 * Works in items (~0.124 s); `refine-boundaries.ts` takes it below 0.1 s.
 */

/** Window length in items (~3 s): long enough to be unambiguous, short enough to fit between two ads. */
export const WINDOW_ITEMS = 24;
/** A window matches when at most this share of its bits differ (unrelated audio: ~0.5; a half-item shift: ~0.1). */
const MAX_WINDOW_BER = 0.3;
/** Runs shorter than this many window starts are noise. */
const MIN_RUN_STARTS = 6;
/** Most candidate offsets verified window by window. */
const MAX_CANDIDATES = 64;
/** Item values this common (silence, a steady tone) say nothing about where they are. */
const MAX_BUCKET = 24;

/** A stretch of the current fingerprint matching the reference at `offset` items (current = reference + offset). */
export interface ItemRun {
  curStart: number;
  /** Exclusive. */
  curEnd: number;
  offset: number;
  /** Mean bit-error rate of its windows. */
  ber: number;
}

export function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * The run of current items `curStart`…`curEnd` (exclusive) at `offset` from
 * the reference, with its mean bit-error rate over the items both files
 * hold (0.5, a coin's, when none).
 */
export function itemRun(ref: Uint32Array, cur: Uint32Array, curStart: number, curEnd: number, offset: number): ItemRun {
  let bits = 0;
  let n = 0;
  for (let i = curStart; i < curEnd; i++) {
    const j = i - offset;
    if (j < 0 || j >= ref.length) continue;
    bits += popcount((cur[i]! ^ ref[j]!) >>> 0);
    n++;
  }
  return { curStart, curEnd, offset, ber: n > 0 ? bits / n / 32 : 0.5 };
}

/**
 * Offsets worth verifying: votes of items whose upper or lower 16 bits are
 * equal in both fingerprints. Re-encoding keeps a fifth to a third of the
 * halves equal even at a half-item shift, and an unrelated pair of halves
 * collides once in 65536, so the true offsets stand far above the rest.
 */
function candidateOffsets(ref: Uint32Array, cur: Uint32Array): number[] {
  const index = new Map<number, number[]>();
  for (let j = 0; j < ref.length; j++) {
    for (const key of [ref[j]! >>> 16, 0x10000 + (ref[j]! & 0xffff)]) {
      const list = index.get(key);
      if (!list) index.set(key, [j]);
      else if (list.length <= MAX_BUCKET) list.push(j);
    }
  }
  const votes = new Map<number, number>();
  for (let i = 0; i < cur.length; i++) {
    for (const key of [cur[i]! >>> 16, 0x10000 + (cur[i]! & 0xffff)]) {
      const list = index.get(key);
      if (!list || list.length > MAX_BUCKET) continue;
      for (const j of list) votes.set(i - j, (votes.get(i - j) ?? 0) + 1);
    }
  }
  return [...votes.entries()]
    .filter(([, n]) => n >= 3)
    .sort((a, b) => b[1] - a[1])
    .slice(0, MAX_CANDIDATES)
    .map(([d]) => d);
}

/**
 * Matches every window of the current fingerprint (1-item stride) against
 * the reference at each candidate offset and makes each stretch of
 * consecutive windows under the bit-error limit at one offset a run.
 * Windows are not given to their single best offset: in an episode that
 * repeats a phrase, the same words a sentence earlier or later can match a
 * few windows better than the true offset does (a fractional shift costs it
 * bits), and those few windows would cut the true stretch into pieces with
 * wrong ones between. Which runs explain the audio is left to the chain.
 */
export function matchRuns(ref: Uint32Array, cur: Uint32Array): ItemRun[] {
  const W = WINDOW_ITEMS;
  if (ref.length < W || cur.length < W) return [];
  const starts = cur.length - W + 1;
  const limit = MAX_WINDOW_BER * 32 * W;
  const prefix = new Float64Array(cur.length + 1);
  const runs: ItemRun[] = [];
  for (const d of candidateOffsets(ref, cur)) {
    for (let i = 0; i < cur.length; i++) {
      const j = i - d;
      const bits = j >= 0 && j < ref.length ? popcount((cur[i]! ^ ref[j]!) >>> 0) : 16;
      prefix[i + 1] = prefix[i]! + bits;
    }
    let open = -1;
    let bits = 0;
    for (let i = 0; i <= starts; i++) {
      const windowBits = i < starts && i - d >= 0 && i - d + W <= ref.length ? prefix[i + W]! - prefix[i]! : Infinity;
      if (windowBits <= limit) {
        if (open < 0) {
          open = i;
          bits = 0;
        }
        bits += windowBits;
        continue;
      }
      if (open >= 0 && i - open >= MIN_RUN_STARTS) runs.push({ curStart: open, curEnd: i - 1 + W, offset: d, ber: bits / (i - open) / (32 * W) });
      open = -1;
    }
  }
  return monotonicChain(runs);
}

/**
 * The chain of runs explaining the current audio best in which both the
 * current and the reference positions go forward: audio is re-spliced,
 * never shuffled, so a repeated passage matched out of order is dropped.
 * A run is worth its items beyond the run before it, each weighted by how
 * far under the bit-error limit the run matches (an offset two items off
 * still matches slow speech, only worse), less half a window for each
 * splice it implies: the same words at another offset cannot buy their way
 * in by overlapping the true stretch or bridging its noisy windows, while a
 * few seconds of speech between an ad and the end still count. Neighbours
 * may overlap by up to two windows: chromaprint items hear a few items
 * ahead, so the stretches on both sides of an ad reach into it.
 */
function monotonicChain(runs: ItemRun[]): ItemRun[] {
  if (runs.length === 0) return [];
  const W = WINDOW_ITEMS;
  const sorted = [...runs].sort((a, b) => a.curStart - b.curStart || b.curEnd - a.curEnd);
  const weight = sorted.map((r) => Math.max(0, 1 - r.ber / MAX_WINDOW_BER));
  const score = sorted.map((r, i) => (r.curEnd - r.curStart) * weight[i]!);
  const prev = sorted.map(() => -1);
  for (let b = 0; b < sorted.length; b++) {
    const B = sorted[b]!;
    for (let a = 0; a < b; a++) {
      const A = sorted[a]!;
      const fits = B.curStart >= A.curEnd - 2 * W && B.curStart - B.offset >= A.curEnd - A.offset - 2 * W && B.curStart > A.curStart;
      if (!fits) continue;
      const gain = (B.curEnd - Math.max(B.curStart, A.curEnd)) * weight[b]! - (Math.abs(B.offset - A.offset) > 1 ? W / 2 : 0);
      if (score[a]! + gain > score[b]!) {
        score[b] = score[a]! + gain;
        prev[b] = a;
      }
    }
  }
  let at = score.indexOf(Math.max(...score));
  const chain: ItemRun[] = [];
  while (at >= 0) {
    chain.unshift(sorted[at]!);
    at = prev[at]!;
  }
  // Neighbours with (almost) the same offset are one stretch split by a noisy window.
  const merged: ItemRun[] = [];
  for (const r of chain) {
    const last = merged[merged.length - 1];
    if (last && Math.abs(last.offset - r.offset) <= 1 && r.curStart <= last.curEnd + W) {
      const a = last.curEnd - last.curStart;
      const b = r.curEnd - r.curStart;
      merged[merged.length - 1] = { curStart: last.curStart, curEnd: Math.max(last.curEnd, r.curEnd), offset: a >= b ? last.offset : r.offset, ber: (last.ber * a + r.ber * b) / (a + b) };
    } else merged.push({ ...r });
  }
  return merged;
}
