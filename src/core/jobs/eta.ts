import type { Lane } from './lanes.js';

/**
 * What a task costs a lane, as measured: `rate` audio seconds per
 * slot-second, plus `fixed` slot-seconds per task whatever its length
 * (download, decode, split, engine start).
 */
export interface LaneCost {
  rate: number;
  fixed: number;
}

export type LaneRates = Record<Lane, LaneCost>;

/** Work queued on a lane: audio seconds still to transcribe, and tasks not yet started (each pays the fixed cost). */
export interface LaneWork {
  audio: number;
  tasks: number;
}

export type QueuedWork = Record<Lane, LaneWork>;

export const NO_WORK: QueuedWork = { standard: { audio: 0, tasks: 0 }, fast: { audio: 0, tasks: 0 } };

/**
 * Throughput assumed before anything was measured, in audio seconds per
 * slot-second: pocketsphinx runs at about 0.3–0.4 × real time on one core,
 * whisper.cpp's base model at about real time on a CPU core, and a rented GPU
 * behind the OpenAI API at tens of times real time.
 */
export function defaultRate(engine: string): number {
  if (engine === 'openai') return 20;
  if (engine === 'whisper-cpp') return 1;
  return 2.5;
}

/** Slot-seconds a lane's queued work takes: its audio at the lane's rate, plus the fixed cost of each task still to start. */
function slotSeconds(work: LaneWork, cost: LaneCost): number {
  return work.audio / cost.rate + work.tasks * cost.fixed;
}

/**
 * Seconds until the queued work (per lane) is done by `slots` workers
 * sharing the queue: standard-lane chunks are claimed by any worker process,
 * so that work divides across every live slot; fast-lane audio goes to the
 * remote engine `fastConcurrency` requests at a time, which is its width
 * whatever the slots.
 */
export function drainSeconds(queued: QueuedWork, rates: LaneRates, slots: number, fastConcurrency = 1): number {
  return slotSeconds(queued.standard, rates.standard) / Math.max(1, slots) + slotSeconds(queued.fast, rates.fast) / Math.max(1, fastConcurrency);
}

/** The last task a job waits for: it starts when a slot frees and spreads over at most its chunks. */
export interface LastTask {
  lane: Lane;
  /** Audio seconds still to transcribe. */
  remaining: number;
  /** Whole length, which decides how many chunks (and so slots) it can use. */
  audioSeconds: number;
  /** Not yet claimed: it still pays the lane's fixed cost. */
  queued: boolean;
}

/** Chunk length the workers aim for, in seconds (splitAtSilences' default). */
const CHUNK_SECONDS = 30;

/**
 * Seconds until a job is done: the work queued before its last task drains
 * over every slot, then the last task runs on as many slots (fast lane: as
 * many concurrent requests) as it has chunks (a 12-second episode is one
 * chunk: one slot, however many are idle).
 */
export function jobSeconds(before: QueuedWork, last: LastTask | null, rates: LaneRates, slots: number, fastConcurrency = 1): number {
  const wait = drainSeconds(before, rates, slots, fastConcurrency);
  if (!last) return wait;
  const chunks = last.audioSeconds <= CHUNK_SECONDS * 1.5 ? 1 : Math.ceil(last.audioSeconds / CHUNK_SECONDS);
  const width = Math.max(1, Math.min(last.lane === 'fast' ? fastConcurrency : slots, chunks));
  const own = slotSeconds({ audio: last.remaining, tasks: last.queued ? 1 : 0 }, rates[last.lane]);
  return Math.ceil(wait + own / width);
}

/** Bounds of `poll_after_seconds` (spec 4.4 and 8). */
export const POLL_AFTER_MIN = 30;
export const POLL_AFTER_MAX = 300;

/** A quarter of the remaining estimate, clamped to 30–300 s; null once the job is done. */
export function pollAfterSeconds(remainingSeconds: number | null): number | null {
  if (remainingSeconds === null) return null;
  return Math.min(POLL_AFTER_MAX, Math.max(POLL_AFTER_MIN, Math.ceil(remainingSeconds / 4)));
}

/**
 * The fast-lane promise: `factor` × the fast-lane estimate (which grows with
 * the batch and with the fast queue ahead), rounded up to whole minutes, and
 * never under `minSeconds` (spec: at least 300).
 */
export function promiseSeconds(fastEstimateSeconds: number, opts: { minSeconds: number; factor: number }): number {
  const scaled = Math.ceil((fastEstimateSeconds * opts.factor) / 60) * 60;
  return Math.max(opts.minSeconds, scaled);
}
