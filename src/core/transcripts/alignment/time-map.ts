/**
 * A piecewise map from the reference audio's clock (the audio a transcript's
 * times were made on) to the clock of the audio served now. Times are seconds.
 */

/** A stretch of the reference that is in the current audio, shifted by `offset` (current = reference + offset). */
export interface MatchedPiece {
  refStart: number;
  refEnd: number;
  offset: number;
}

/** A stretch of the current audio that is not in the reference: an inserted ad (or other new material). */
export interface InsertedStretch {
  start: number;
  end: number;
}

/** A stretch of the reference no longer in the current audio; `at` is where it was cut out, on the current clock. */
export interface RemovedStretch {
  refStart: number;
  refEnd: number;
  at: number;
}

export interface TimeMap {
  /** Monotonic: reference and current starts both increase. */
  pieces: MatchedPiece[];
  inserted: InsertedStretch[];
  removed: RemovedStretch[];
  referenceSeconds: number;
  audioSeconds: number;
}

/** Where a reference time lands now; `removed` when its stretch is gone from the audio. */
export interface MappedTime {
  t: number;
  removed: boolean;
}

/**
 * Moves a reference time through the map. A time between two pieces that is
 * not inside a removed stretch (the ambiguous edge of a silence) follows the
 * nearer piece; a time inside a removed stretch goes to the cut.
 */
export function mapTime(map: TimeMap, t: number): MappedTime {
  for (const r of map.removed) {
    if (t >= r.refStart && t < r.refEnd) return { t: r.at, removed: true };
  }
  const pieces = map.pieces;
  if (pieces.length === 0) return { t, removed: false };
  let chosen = pieces[0]!;
  for (const p of pieces) {
    if (t >= p.refStart) chosen = p;
  }
  // Between the chosen piece's end and the next one's start: the nearer one decides.
  const next = pieces[pieces.indexOf(chosen) + 1];
  if (next && t > chosen.refEnd && next.refStart - t < t - chosen.refEnd) chosen = next;
  return { t: Math.max(0, t + chosen.offset), removed: false };
}

/** True when the map changes no time by `tolerance` seconds or more and nothing was inserted or removed. */
export function isIdentity(map: TimeMap, tolerance = 0.05): boolean {
  return map.inserted.length === 0 && map.removed.length === 0 && map.pieces.every((p) => Math.abs(p.offset) < tolerance);
}

/** Whether two maps move every time by the same amount within `tolerance` seconds. */
export function sameMap(a: TimeMap | null, b: TimeMap | null, tolerance = 0.05): boolean {
  if (!a || !b) return a === b;
  if (a.pieces.length !== b.pieces.length || a.inserted.length !== b.inserted.length || a.removed.length !== b.removed.length) return false;
  const close = (x: number, y: number) => Math.abs(x - y) < tolerance;
  return (
    a.pieces.every((p, i) => close(p.offset, b.pieces[i]!.offset) && close(p.refStart, b.pieces[i]!.refStart) && close(p.refEnd, b.pieces[i]!.refEnd)) &&
    a.inserted.every((s, i) => close(s.start, b.inserted[i]!.start) && close(s.end, b.inserted[i]!.end)) &&
    Math.abs(a.audioSeconds - b.audioSeconds) < tolerance
  );
}
