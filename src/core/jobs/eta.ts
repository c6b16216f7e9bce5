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

/**
 * Work queued on a lane: audio seconds still to transcribe, and tasks still
 * to do, each counted by the share of it left (its fixed cost is paid as it
 * goes: a task claimed a moment ago still has its download and split ahead).
 */
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

/** Slot-seconds a lane's queued work takes: its audio at the lane's rate, plus the fixed cost of the tasks left. */
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
  /** Seconds since a worker claimed it, while it runs. */
  runningSeconds?: number;
}

/**
 * The least a running last task still needs, from its own pace: what it did
 * in the time it has run, extrapolated (and, before half of it is done,
 * taken as at most half done). A lane's measured rate is learned only when
 * whole tasks finish; until then a slow engine (a fast-lane endpoint far
 * slower than assumed) would be promised done in a few seconds, again and again.
 */
export function paceFloorSeconds(last: LastTask | null): number {
  if (!last?.runningSeconds || last.audioSeconds <= 0) return 0;
  const done = Math.max(0, 1 - last.remaining / last.audioSeconds);
  return Math.ceil((last.runningSeconds * (1 - done)) / Math.max(done, 0.5));
}

/**
 * The least a job whose episode failed an attempt still needs: the backoff
 * before the task may be claimed again, then the task itself. Work queued
 * behind it is claimed meanwhile, so the queue alone would promise the job
 * done in seconds again and again until the retry has run.
 */
export function retryFloorSeconds(retry: JobQueue['retry'], rates: LaneRates, slots: number, fastConcurrency = 1): number {
  if (!retry) return 0;
  return Math.ceil(retry.waitSeconds + jobSeconds(NO_WORK, retry.task, rates, slots, fastConcurrency));
}

/** The share of a task still to do, by which it still pays the lane's fixed cost. */
function share(t: { remaining: number; audioSeconds: number }): number {
  return t.audioSeconds > 0 ? Math.min(1, t.remaining / t.audioSeconds) : 1;
}

/** Chunk length the workers aim for, in seconds (splitAtSilences' default). */
export const CHUNK_SECONDS = 30;

/** Chunks an episode of `audioSeconds` is split into (up to 1.5 chunk lengths stays whole). */
function chunkCount(audioSeconds: number): number {
  return audioSeconds <= CHUNK_SECONDS * 1.5 ? 1 : Math.ceil(audioSeconds / CHUNK_SECONDS);
}

/** A standard-lane task in claim order, to be scheduled task by task. */
export interface ScheduledTask {
  /** Audio seconds still to transcribe. */
  remaining: number;
  audioSeconds: number;
  /** One of the job's own episodes: the job is done when the last of these is. */
  mine: boolean;
}

/**
 * Seconds until the job's own standard-lane tasks are done, scheduled as the
 * workers claim them: a task's split (the fixed cost) runs on the slot that
 * frees first, then each of its chunks on whichever slot frees first after
 * that. Unlike spreading the work ahead over every slot, a task with a slot
 * idle for it starts at once, and a one-chunk episode holds one slot.
 * @param startAt seconds until the slots reach these tasks (work further ahead).
 */
export function scheduleSeconds(tasks: readonly ScheduledTask[], cost: LaneCost, slots: number, startAt = 0): number {
  const free: number[] = new Array(Math.max(1, slots)).fill(startAt);
  const earliest = () => {
    let best = 0;
    for (let i = 1; i < free.length; i++) if (free[i]! < free[best]!) best = i;
    return best;
  };
  let done = startAt;
  for (const t of tasks) {
    const first = earliest();
    const split = free[first]! + cost.fixed * share(t);
    free[first] = split;
    const chunks = chunkCount(t.audioSeconds);
    const left = Math.max(1, Math.ceil((chunks * t.remaining) / Math.max(t.audioSeconds, 1)));
    const each = t.remaining / left / cost.rate;
    let end = split;
    for (let c = 0; c < left; c++) {
      const slot = chunks === 1 ? first : earliest();
      free[slot] = Math.max(free[slot]!, split) + each;
      end = Math.max(end, free[slot]!);
    }
    if (t.mine) done = Math.max(done, end);
  }
  return Math.ceil(done);
}

/**
 * Seconds until a job is done: the work queued before its last task drains
 * over every slot, then the last task runs on as many slots (fast lane: as
 * many concurrent requests) as it has chunks (a 12-second episode is one
 * chunk: one slot, however many are idle).
 */
export function jobSeconds(before: QueuedWork, last: LastTask | null, rates: LaneRates, slots: number, fastConcurrency = 1): number {
  const wait = drainSeconds(before, rates, slots, fastConcurrency);
  if (!last) return wait;
  const chunks = chunkCount(last.audioSeconds);
  const width = Math.max(1, Math.min(last.lane === 'fast' ? fastConcurrency : slots, chunks));
  const own = slotSeconds({ audio: last.remaining, tasks: share(last) }, rates[last.lane]);
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

/** What stands before a job, as the queue reports it (see queue-state). */
export interface JobQueue {
  before: QueuedWork;
  last: LastTask | null;
  /**
   * The job's own task whose next attempt is furthest off (it failed and
   * waits out its backoff before any worker may claim it again), and how long
   * until then in seconds; absent when none waits.
   */
  retry?: { waitSeconds: number; task: LastTask };
  /**
   * For a job whose last task is on the standard lane: the standard tasks
   * nearest before it (and the job's own) one by one, in claim order, and the
   * standard work further ahead as a sum.
   */
  schedule?: { bulk: LaneWork; tasks: ScheduledTask[] };
}

/**
 * Seconds until a job is done. A standard-lane job is scheduled task by task
 * (`scheduleSeconds`) after the fast lane's work and the standard work too far
 * ahead to detail have drained; a fast-lane job waits for the work before its
 * last task, then spreads that over the endpoint's concurrent requests
 * (`jobSeconds`). Never less than a running last task's own pace allows
 * (`paceFloorSeconds`), nor than a retried task's backoff and run
 * (`retryFloorSeconds`).
 */
export function estimateSeconds(queue: JobQueue, rates: LaneRates, slots: number, fastConcurrency = 1): number {
  const floor = Math.max(paceFloorSeconds(queue.last), retryFloorSeconds(queue.retry, rates, slots, fastConcurrency));
  if (!queue.schedule) return Math.max(floor, jobSeconds(queue.before, queue.last, rates, slots, fastConcurrency));
  const startAt = drainSeconds({ standard: queue.schedule.bulk, fast: queue.before.fast }, rates, slots, fastConcurrency);
  return Math.max(floor, scheduleSeconds(queue.schedule.tasks, rates.standard, slots, startAt));
}
