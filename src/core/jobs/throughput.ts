import type { Tx } from '../transaction.js';
import { defaultRate, type LaneCost, type LaneRates } from './eta.js';
import type { Lane } from './lanes.js';

/**
 * Slot-seconds over which a measurement's weight decays by e: the moving
 * window is one of slot time, not of task count. A task weighs by how long it
 * held its slots, so the average is total audio over total slot time (what a
 * queue of mixed lengths drains at); a 15-second episode cannot swing the
 * rate as far as an hour-long one.
 */
const WINDOW_SLOT_SECONDS = 600;

/** Weight of a sample that held slots for `slotSeconds` in the moving average. */
export function sampleWeight(slotSeconds: number): number {
  return 1 - Math.exp(-slotSeconds / WINDOW_SLOT_SECONDS);
}

function key(lane: Lane, engine: string): string {
  return `${lane}:${engine}`;
}

/** Decayed sums of finished tasks: weight, audio seconds (x), slot-seconds (y), x², x·y. */
export interface FitSums {
  w: number;
  x: number;
  y: number;
  xx: number;
  xy: number;
}

/**
 * The sums after the n-th task (0-based `n` before it): older tasks' weight
 * shrinks by the new one's (`sampleWeight`), but by no less than 1/(n+1), so
 * the first few are averaged.
 */
export function foldSample(sums: FitSums | null, n: number, audioSeconds: number, slotSeconds: number): FitSums {
  const w = Math.max(sampleWeight(slotSeconds), 1 / (n + 1));
  const decay = (old: number | undefined, sample: number) => (old ?? 0) * (1 - w) + sample * w;
  return {
    w: decay(sums?.w, 1),
    x: decay(sums?.x, audioSeconds),
    y: decay(sums?.y, slotSeconds),
    xx: decay(sums?.xx, audioSeconds * audioSeconds),
    xy: decay(sums?.xy, audioSeconds * slotSeconds),
  };
}

/**
 * The lane's cost from its sums: slot time = fixed + audio / rate, fitted by
 * weighted least squares when the tasks' lengths differ enough to tell the
 * two parts apart (a coefficient of variation over 0.2); otherwise, or when
 * the fit is not physical (a negative part), all the time is put on the
 * audio, as before anything distinguished them.
 */
export function fitCost(s: FitSums): LaneCost | null {
  if (s.w <= 0 || s.x <= 0 || s.y <= 0) return null;
  const mx = s.x / s.w;
  const my = s.y / s.w;
  const varX = s.xx / s.w - mx * mx;
  const covXY = s.xy / s.w - mx * my;
  if (varX > 0.04 * mx * mx) {
    const perAudio = covXY / varX;
    const fixed = my - perAudio * mx;
    if (perAudio > 0 && fixed >= 0) return { rate: clampRate(1 / perAudio), fixed };
  }
  return { rate: clampRate(mx / my), fixed: 0 };
}

function clampRate(rate: number): number {
  return Math.min(1000, Math.max(0.01, rate));
}

/**
 * Measured cost of each lane's engine (audio seconds per slot-second and
 * slot-seconds per task), or the engine's default before the first
 * measurement. Rows persist, so a restart keeps what was learnt.
 */
export async function readLaneRates(db: Tx, engines: Record<Lane, string>): Promise<LaneRates> {
  const rows = await db.laneThroughput.findMany({ where: { lane: { in: [key('standard', engines.standard), key('fast', engines.fast)] } } });
  const found = new Map(rows.map((r) => [r.lane, { rate: r.audioSecondsPerSecond, fixed: r.fixedSeconds }]));
  return {
    standard: found.get(key('standard', engines.standard)) ?? { rate: defaultRate(engines.standard), fixed: 0 },
    fast: found.get(key('fast', engines.fast)) ?? { rate: defaultRate(engines.fast), fixed: 0 },
  };
}

/**
 * Folds one finished task into its lane's decayed sums (`foldSample`) and
 * refits the cost, so the first task to finish (often the shortest, whose
 * fixed cost weighs most) does not set the cost alone. Measured in wall time, so a loaded machine is
 * simply a slower one, and the estimates follow it within a few minutes of
 * work.
 * @param slotSeconds worker-slot seconds the task used (its own slot plus any lent for chunks).
 */
export async function recordThroughput(tx: Tx, lane: Lane, engine: string, audioSeconds: number, slotSeconds: number): Promise<void> {
  if (!Number.isFinite(audioSeconds / slotSeconds) || audioSeconds <= 0 || slotSeconds <= 0) return;
  const id = key(lane, engine);
  await tx.$executeRaw`INSERT INTO lane_throughput (lane, audio_seconds_per_second) VALUES (${id}, ${clampRate(audioSeconds / slotSeconds)}) ON CONFLICT (lane) DO NOTHING`;
  // Row-locked so that two workers settling at once each fold in their task.
  const [row] = await tx.$queryRaw<{ samples: number; sum_w: number; sum_x: number; sum_y: number; sum_xx: number; sum_xy: number }[]>`
    SELECT samples, sum_w, sum_x, sum_y, sum_xx, sum_xy FROM lane_throughput WHERE lane = ${id} FOR UPDATE`;
  const sums = foldSample(row ? { w: row.sum_w, x: row.sum_x, y: row.sum_y, xx: row.sum_xx, xy: row.sum_xy } : null, row?.samples ?? 0, audioSeconds, slotSeconds);
  const cost = fitCost(sums)!;
  await tx.$executeRaw`
    UPDATE lane_throughput SET audio_seconds_per_second = ${cost.rate}, fixed_seconds = ${cost.fixed}, samples = samples + 1,
      sum_w = ${sums.w}, sum_x = ${sums.x}, sum_y = ${sums.y}, sum_xx = ${sums.xx}, sum_xy = ${sums.xy}, updated_at = now()
    WHERE lane = ${id}`;
}
