/**
 * Sub-item precision from the 100 Hz loudness envelopes: each matched
 * stretch's offset by cross-correlation, each splice by the change point
 * where one offset stops explaining the audio. Envelope values are
 * half-decibels (see `fingerprint.ts`).
 */

/** Farthest a refined offset moves from the coarse one, in frames (two fingerprint items and a bit). */
const OFFSET_SEARCH = 35;
/** Longest stretch correlated to refine an offset, in frames (60 s). */
const OFFSET_REGION = 6000;
/** Cost of a reference frame matching nothing (half-dB): above re-encoding noise, below a real mismatch. */
export const UNMATCHED_COST = 10;
/** Ceiling of one frame's mismatch, so a single click does not outweigh a second of agreement. */
const MAX_COST = 60;

/** Linear interpolation of `env` at fractional frame `x`; null outside. */
function at(env: Uint8Array, x: number): number | null {
  if (x < 0 || x > env.length - 1) return null;
  const i = Math.floor(x);
  const f = x - i;
  return f === 0 ? env[i]! : env[i]! * (1 - f) + env[i + 1]! * f;
}

export function pearson(ref: Uint8Array, cur: Uint8Array, from: number, to: number, lag: number): number | null {
  let n = 0, sx = 0, sy = 0, sxx = 0, syy = 0, sxy = 0;
  for (let f = from; f < to; f++) {
    const g = f + lag;
    if (g < 0 || g >= cur.length) continue;
    const x = ref[f]!;
    const y = cur[g]!;
    n++;
    sx += x;
    sy += y;
    sxx += x * x;
    syy += y * y;
    sxy += x * y;
  }
  if (n < 50) return null;
  const vx = sxx - (sx * sx) / n;
  const vy = syy - (sy * sy) / n;
  if (vx <= 1e-9 || vy <= 1e-9) return null;
  return (sxy - (sx * sy) / n) / Math.sqrt(vx * vy);
}

export interface RefinedOffset {
  /** Frames: current = reference + offset. */
  offset: number;
  /** Envelope correlation at that offset (null when the stretch is too short or silent). */
  correlation: number | null;
  /** Median loudness difference current − reference (hosts may normalise the whole file). */
  gain: number;
}

/**
 * The offset of one stretch to a fraction of a frame: the lag (within
 * ±0.35 s of `coarse`) whose envelope correlation is highest over the
 * stretch's middle, interpolated through its neighbours.
 */
export function refineOffset(ref: Uint8Array, cur: Uint8Array, refFrom: number, refTo: number, coarse: number): RefinedOffset {
  let from = Math.max(0, Math.floor(refFrom));
  let to = Math.min(ref.length, Math.ceil(refTo));
  // Stay clear of the fuzzy ends, and keep the work bounded on long stretches.
  const margin = Math.min(150, Math.floor((to - from) / 6));
  from += margin;
  to -= margin;
  if (to - from > OFFSET_REGION) {
    const mid = Math.floor((from + to) / 2);
    from = mid - OFFSET_REGION / 2;
    to = mid + OFFSET_REGION / 2;
  }
  const base = Math.round(coarse);
  const scores: (number | null)[] = [];
  let best = -1;
  for (let k = -OFFSET_SEARCH; k <= OFFSET_SEARCH; k++) {
    const s = pearson(ref, cur, from, to, base + k);
    scores.push(s);
    if (s !== null && (best < 0 || s > scores[best]!)) best = scores.length - 1;
  }
  if (best < 0) return { offset: coarse, correlation: null, gain: medianGain(ref, cur, from, to, coarse) };
  let offset = base + best - OFFSET_SEARCH;
  const l = scores[best - 1];
  const r = scores[best + 1];
  if (l != null && r != null) {
    const c = scores[best]!;
    const denom = l - 2 * c + r;
    if (denom < 0) offset += Math.max(-0.5, Math.min(0.5, (0.5 * (l - r)) / denom));
  }
  return { offset, correlation: scores[best]!, gain: medianGain(ref, cur, from, to, offset) };
}

function medianGain(ref: Uint8Array, cur: Uint8Array, from: number, to: number, offset: number): number {
  const diffs: number[] = [];
  for (let f = from; f < to; f += 3) {
    const y = at(cur, f + offset);
    // Silence says nothing about a gain applied to speech.
    if (y !== null && ref[f]! > 60) diffs.push(y - ref[f]!);
  }
  if (diffs.length === 0) return 0;
  diffs.sort((a, b) => a - b);
  return diffs[Math.floor(diffs.length / 2)]!;
}

/** Prefix sums of the per-frame cost of explaining reference frames [lo, hi) by `o`. */
function costPrefix(ref: Uint8Array, cur: Uint8Array, lo: number, hi: number, o: RefinedOffset): Float64Array {
  const out = new Float64Array(hi - lo + 1);
  for (let f = lo; f < hi; f++) {
    const y = at(cur, f + o.offset);
    const c = y === null ? MAX_COST : Math.min(MAX_COST, Math.abs(ref[f]! + o.gain - y));
    out[f - lo + 1] = out[f - lo]! + c;
  }
  return out;
}

/**
 * The splice between two matched stretches: reference frames before `end`
 * follow `a`, from `start` on follow `b`, and those between (if any) are
 * gone from the current audio. Searched within `span` frames of the coarse
 * guesses; the current audio may not run backwards (`end + a ≤ start + b`).
 */
export function refineSplice(ref: Uint8Array, cur: Uint8Array, a: RefinedOffset, b: RefinedOffset, coarseEnd: number, coarseStart: number, span: number, aStart: number): { end: number; start: number } {
  // Frames before `a` begins belong to an earlier splice: they would only add the same cost to every choice.
  const lo = Math.max(0, Math.ceil(aStart), Math.floor(Math.min(coarseEnd, coarseStart) - span));
  const hi = Math.min(ref.length, Math.ceil(Math.max(coarseEnd, coarseStart) + span));
  if (hi <= lo) return { end: lo, start: lo };
  const pa = costPrefix(ref, cur, lo, hi, a);
  const pb = costPrefix(ref, cur, lo, hi, b);
  const endFrom = Math.max(lo, Math.floor(coarseEnd - span));
  const endTo = Math.min(hi, Math.ceil(coarseEnd + span));
  const startFrom = Math.max(lo, Math.floor(coarseStart - span));
  const startTo = Math.min(hi, Math.ceil(coarseStart + span));
  let best = { end: endFrom, start: Math.max(endFrom, startFrom), cost: Infinity };
  for (let e = endFrom; e <= endTo; e++) {
    const before = pa[e - lo]!;
    const minStart = Math.max(e, startFrom, Math.ceil(e + a.offset - b.offset - 1e-9));
    for (let s = minStart; s <= startTo; s++) {
      const cost = before + UNMATCHED_COST * (s - e) + (pb[hi - lo]! - pb[s - lo]!);
      if (cost < best.cost) best = { end: e, start: s, cost };
    }
  }
  return { end: best.end, start: best.start };
}

/** Where the first matched stretch begins in the reference (not after `coarseEnd`, where it surely still matched): frames before it match nothing now. */
export function refineFirstStart(ref: Uint8Array, cur: Uint8Array, o: RefinedOffset, coarseStart: number, span: number, coarseEnd: number): number {
  const lo = Math.max(0, Math.floor(coarseStart - span), Math.ceil(-o.offset));
  const hi = Math.min(ref.length, Math.ceil(coarseStart + span), Math.floor(coarseEnd));
  if (hi <= lo) return Math.max(0, Math.ceil(-o.offset));
  const p = costPrefix(ref, cur, lo, hi, o);
  let best = { s: lo, cost: Infinity };
  for (let s = lo; s <= hi; s++) {
    const cost = UNMATCHED_COST * (s - lo) + (p[hi - lo]! - p[s - lo]!);
    if (cost < best.cost) best = { s, cost };
  }
  return best.s;
}

/** Where the last matched stretch (starting at `start`) ends in the reference: frames after it match nothing now. */
export function refineLastEnd(ref: Uint8Array, cur: Uint8Array, o: RefinedOffset, coarseEnd: number, span: number, start: number): number {
  const lo = Math.max(0, Math.ceil(start), Math.floor(coarseEnd - span));
  const hi = Math.min(ref.length, Math.ceil(coarseEnd + span), Math.floor(cur.length - o.offset));
  if (hi <= lo) return Math.max(lo, hi);
  const p = costPrefix(ref, cur, lo, hi, o);
  let best = { e: hi, cost: Infinity };
  for (let e = lo; e <= hi; e++) {
    const cost = p[e - lo]! + UNMATCHED_COST * (hi - e);
    if (cost < best.cost) best = { e, cost };
  }
  return best.e;
}
