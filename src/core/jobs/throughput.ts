import type { Tx } from '../transaction.js';
import { defaultRate, type LaneRates } from './eta.js';
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

/**
 * Measured throughput of each lane's engine (audio seconds per slot-second),
 * or the engine's default before the first measurement. Rows persist, so a
 * restart keeps what was learnt.
 */
export async function readLaneRates(db: Tx, engines: Record<Lane, string>): Promise<LaneRates> {
  const rows = await db.laneThroughput.findMany({ where: { lane: { in: [key('standard', engines.standard), key('fast', engines.fast)] } } });
  const found = new Map(rows.map((r) => [r.lane, r.audioSecondsPerSecond]));
  return {
    standard: found.get(key('standard', engines.standard)) ?? defaultRate(engines.standard),
    fast: found.get(key('fast', engines.fast)) ?? defaultRate(engines.fast),
  };
}

/**
 * Folds one finished task into the moving average of its lane's engine: the
 * first measurement replaces the default, later ones move it by their weight
 * (`sampleWeight`), but no less than 1/(n+1) for the n-th: the first few
 * samples are averaged, so the first task to finish (often the shortest,
 * whose fixed costs weigh most) does not set the rate alone. Measured in
 * wall time, so a loaded machine is simply a slower one, and the estimates
 * follow it within a few minutes of work.
 * @param slotSeconds worker-slot seconds the task used (its own slot plus any lent for chunks).
 */
export async function recordThroughput(tx: Tx, lane: Lane, engine: string, audioSeconds: number, slotSeconds: number): Promise<void> {
  const sample = audioSeconds / slotSeconds;
  if (!Number.isFinite(sample) || sample <= 0) return;
  const clamped = Math.min(1000, Math.max(0.01, sample));
  const weight = sampleWeight(slotSeconds);
  await tx.$executeRaw`
    INSERT INTO lane_throughput (lane, audio_seconds_per_second, samples) VALUES (${key(lane, engine)}, ${clamped}, 1)
    ON CONFLICT (lane) DO UPDATE SET
      audio_seconds_per_second = lane_throughput.audio_seconds_per_second * (1 - greatest(${weight}::float8, 1.0 / (lane_throughput.samples + 1)))
        + EXCLUDED.audio_seconds_per_second * greatest(${weight}::float8, 1.0 / (lane_throughput.samples + 1)),
      samples = lane_throughput.samples + 1,
      updated_at = now()`;
}
