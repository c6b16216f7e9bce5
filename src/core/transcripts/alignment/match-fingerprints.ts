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

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
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
 * the reference at each candidate offset, keeps the best one under the
 * bit-error limit, and groups consecutive windows into runs. Adjacent runs
 * whose offsets differ by one item (a fractional shift flickering between
 * its two neighbours) are one run.
 */
export function matchRuns(ref: Uint32Array, cur: Uint32Array): ItemRun[] {
  const W = WINDOW_ITEMS;
  if (ref.length < W || cur.length < W) return [];
  const candidates = candidateOffsets(ref, cur);
  const starts = cur.length - W + 1;
  const bestOffset = new Int32Array(starts).fill(0x7fffffff);
  const bestBits = new Float64Array(starts).fill(Infinity);
  const prefix = new Float64Array(cur.length + 1);
  for (const d of candidates) {
    for (let i = 0; i < cur.length; i++) {
      const j = i - d;
      const bits = j >= 0 && j < ref.length ? popcount((cur[i]! ^ ref[j]!) >>> 0) : 16;
      prefix[i + 1] = prefix[i]! + bits;
    }
    for (let i = 0; i < starts; i++) {
      if (i - d < 0 || i - d + W > ref.length) continue;
      const bits = prefix[i + W]! - prefix[i]!;
      if (bits < bestBits[i]!) {
        bestBits[i] = bits;
        bestOffset[i] = d;
      }
    }
  }
  const limit = MAX_WINDOW_BER * 32 * W;
  const runs: ItemRun[] = [];
  let open: { start: number; offsets: Map<number, number>; last: number; bits: number; n: number } | null = null;
  const close = (endStart: number) => {
    if (!open) return;
    if (endStart - open.start >= MIN_RUN_STARTS) {
      const offset = [...open.offsets.entries()].sort((a, b) => b[1] - a[1])[0]![0];
      runs.push({ curStart: open.start, curEnd: endStart - 1 + W, offset, ber: open.bits / open.n / (32 * W) });
    }
    open = null;
  };
  for (let i = 0; i < starts; i++) {
    const ok = bestBits[i]! <= limit;
    const d = bestOffset[i]!;
    if (open && (!ok || Math.abs(d - open.last) > 1)) close(i);
    if (!ok) continue;
    open ??= { start: i, offsets: new Map(), last: d, bits: 0, n: 0 };
    open.offsets.set(d, (open.offsets.get(d) ?? 0) + 1);
    open.last = d;
    open.bits += bestBits[i]!;
    open.n++;
  }
  close(starts);
  return monotonicChain(runs);
}

/**
 * The heaviest chain of runs in which both the current and the reference
 * positions go forward (overlaps of up to a window allowed, since window
 * ends are fuzzy): audio is re-spliced, never shuffled, so a repeated
 * passage matched out of order is dropped.
 */
function monotonicChain(runs: ItemRun[]): ItemRun[] {
  if (runs.length === 0) return [];
  const W = WINDOW_ITEMS;
  const sorted = [...runs].sort((a, b) => a.curStart - b.curStart);
  const score = sorted.map((r) => r.curEnd - r.curStart);
  const prev = sorted.map(() => -1);
  for (let b = 0; b < sorted.length; b++) {
    const B = sorted[b]!;
    for (let a = 0; a < b; a++) {
      const A = sorted[a]!;
      const fits = B.curStart >= A.curEnd - W && B.curStart - B.offset >= A.curEnd - A.offset - W && B.curStart > A.curStart;
      if (fits && score[a]! + (B.curEnd - B.curStart) > score[b]!) {
        score[b] = score[a]! + (B.curEnd - B.curStart);
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
