import type { Lane } from './lanes.js';

/** Tunables of the job service. Every field has a default; tests shorten the times. */
export interface JobOptions {
  /** Lease on a claimed task, in seconds; the worker renews it every third of that. Default: 120. */
  leaseSeconds: number;
  /** Attempts per task (a lease that ran out counts as one) before the episode fails. Default: 3. */
  maxAttempts: number;
  /** Pause before retry n is this times 2^(n-1), in seconds. Default: 30. */
  retryDelaySeconds: number;
  /** Shortest fast-lane promise, in seconds (spec: at least 300). Default: 300. */
  minPromiseSeconds: number;
  /** The promise is this many times the fast-lane estimate, when that is longer. Default: 2. */
  promiseFactor: number;
  /**
   * Whether a fast lane is configured (an engine faster than the standard
   * lane's); without one `fast: true` is refused before anything is charged. Default: false.
   */
  fastLaneAvailable: boolean;
  /** Chunks of one fast-lane episode sent to the fast engine at once (FAST_ASR_CONCURRENCY), for the ETA. Default: 8. */
  fastConcurrency: number;
  /** Engine of each lane (`sphinx`, `whisper-cpp`, `openai`): picks the throughput before any is measured. Default: sphinx. */
  laneEngines: Record<Lane, string>;
  /** Assumed length of an episode when neither the request (`secs`) nor the index knows it, in seconds. Default: 3600. */
  unknownDurationSeconds: number;
  /** Longest audio transcribed, in seconds. Default: 21600 (6 hours). */
  maxEpisodeSeconds: number;
  /** A worker pool unheard of for this long no longer counts for the ETA, in seconds. Default: 30. */
  workerTtlSeconds: number;
}

export const defaultJobOptions: JobOptions = {
  leaseSeconds: 120,
  maxAttempts: 3,
  retryDelaySeconds: 30,
  minPromiseSeconds: 300,
  promiseFactor: 2,
  fastLaneAvailable: false,
  fastConcurrency: 8,
  laneEngines: { standard: 'sphinx', fast: 'sphinx' },
  unknownDurationSeconds: 3600,
  maxEpisodeSeconds: 21_600,
  workerTtlSeconds: 30,
};
