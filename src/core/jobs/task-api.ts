import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Logger } from '../../infra/logger.js';
import type { Clock } from '../clock.js';
import { inTransaction } from '../transaction.js';
import type { JobChange, SettleContext } from './finish-jobs.js';
import type { AsrResult } from '../../infra/asr/asr-engine.js';
import { type ClaimedChunk, claimChunk, heartbeatChunk, insertChunks, type NewChunk, releaseChunk } from './chunk-queue.js';
import { episodeVocabulary } from './episode-vocabulary.js';
import type { Lane } from './lanes.js';
import { REQUESTED_SHOW_ID } from './resolve-episodes.js';
import { recordChunkFailure, storeChunkResult } from './settle-chunks.js';
import { NO_SPEECH, recordTaskFailure, type Settled, storeTaskResult, type TaskResult } from './settle-task.js';
import {
  announceWorkerPool,
  type ClaimedTask,
  claimTask,
  type HandOff,
  handOffTask,
  heartbeatTask,
  markJobsProcessing,
  type Progress,
  releaseTask,
  retireWorkerPool,
} from './task-queue.js';

export interface TaskApiDeps {
  db: PrismaClient;
  clock: Clock;
  log: Logger;
  settle: SettleContext;
  afterCommit(changes: JobChange[], accounts: string[]): Promise<void>;
  onTranscriptStored(transcriptId: string): void;
}

/** Why a task attempt failed, as the worker classified it. */
export interface TaskFailure {
  message: string;
  /** True when retrying cannot help (too long for what was paid, refused address, …). */
  permanent: boolean;
}

/**
 * The core side of the transcription workers: every call is fenced by the
 * task's attempt number, so a worker that lost its lease changes nothing.
 */
export function createTaskApi(deps: TaskApiDeps) {
  const { db, clock } = deps;

  async function jobsStarted(taskId: string): Promise<void> {
    const started = await markJobsProcessing(db, taskId, clock.now());
    if (started.length > 0) await deps.afterCommit(started.map((j) => ({ jobId: j.id, accountId: j.account_id, status: 'processing' as const })), []);
  }

  async function claim(workerId: string, onlyLane: Lane | null = null): Promise<ClaimedTask | null> {
    const task = await claimTask(db, workerId, onlyLane);
    if (task) await jobsStarted(task.id);
    return task;
  }

  /** Says so in the log when the episode failed for want of words (its jobs were refunded). */
  function noSpeech(transcriptId: string, settled: Settled): boolean {
    if (settled.noSpeech) deps.log.warn({ transcriptId, reason: NO_SPEECH, outcome: 'failed' }, 'transcription failed: no speech recognised; waiting jobs refunded');
    return settled.noSpeech === true;
  }

  return {
    /** The next task for this worker, or null when there is none; its jobs become `processing`. */
    claim,

    /**
     * The next piece of work: a fast-lane task first (its recognition runs
     * remotely), then a chunk of an episode already split (episodes finish in
     * the order they started), then any task.
     */
    async claimWork(workerId: string): Promise<{ task: ClaimedTask } | { chunk: ClaimedChunk } | null> {
      const fast = await claim(workerId, 'fast');
      if (fast) return { task: fast };
      const chunk = await claimChunk(db, workerId);
      if (chunk) return { chunk };
      const task = await claim(workerId);
      return task ? { task } : null;
    },

    /**
     * Queues a decoded task's chunks for any worker on any machine and lets go
     * of the task: whoever stores its last chunk stitches and settles it.
     * @returns false when the attempt is stale (nothing written).
     */
    async splitIntoChunks(task: ClaimedTask, chunks: readonly NewChunk[], f: HandOff): Promise<boolean> {
      return inTransaction(db, async (tx) => {
        if (!(await handOffTask(tx, task, f))) return false;
        await insertChunks(tx, task.id, task.attempt, f.engineLane, chunks);
        return true;
      });
    },

    /**
     * The show's vocabulary for an episode (`episodeVocabulary`), read once
     * per attempt by the worker; a split keeps it on the task for the chunks.
     */
    vocabulary: (transcriptId: string) => episodeVocabulary(db, transcriptId),

    /**
     * Whether the episode's audio URL is its feed's, shown to anyone; a requested
     * episode's is its supplier's alone, though other accounts' jobs may wait on it.
     */
    async audioIsPublic(transcriptId: string): Promise<boolean> {
      const episode = await db.episode.findUnique({ where: { transcriptId }, select: { showId: true } });
      return episode !== null && episode.showId !== REQUESTED_SHOW_ID;
    },

    /** Renews a chunk's lease; false: lost, stop. */
    heartbeatChunk: (chunk: ClaimedChunk) => heartbeatChunk(db, chunk),

    /**
     * Stores a chunk's words; the last one stitches and settles the episode.
     * @returns `stale` when the attempt no longer holds the chunk: nothing was stored.
     */
    async completeChunk(chunk: ClaimedChunk, result: AsrResult, slotSeconds: number, engines: Record<Lane, { name: string; model: string }>): Promise<'stored' | 'settled' | 'stale' | 'failed'> {
      const out = await inTransaction(db, (tx) => storeChunkResult(tx, chunk, result, slotSeconds, engines, deps.settle));
      if (!out) return 'stale';
      if (!out.settled) return 'stored';
      deps.onTranscriptStored(out.transcriptId);
      await deps.afterCommit(out.settled.changes, out.settled.accounts);
      return noSpeech(out.transcriptId, out.settled) ? 'failed' : 'settled';
    },

    /** Records a chunk's failed attempt: retried later, or the episode fails (refunded once). */
    async failChunk(chunk: ClaimedChunk, failure: TaskFailure): Promise<'stale' | 'retry' | 'failed'> {
      const result = await inTransaction(db, (tx) => recordChunkFailure(tx, chunk, failure, deps.settle));
      if (result.outcome === 'failed') await deps.afterCommit(result.settled.changes, result.settled.accounts);
      return result.outcome;
    },

    /** Hands a chunk back untouched (the worker is stopping). */
    releaseChunk: (chunk: ClaimedChunk) => releaseChunk(db, chunk),

    /**
     * Renews the lease and records progress. False: the lease is lost and the
     * worker must stop. Jobs that joined the task since it was claimed become `processing`.
     */
    async heartbeat(task: ClaimedTask, progress: Progress): Promise<boolean> {
      const ok = await heartbeatTask(db, task, progress);
      if (ok) await jobsStarted(task.id);
      return ok;
    },

    /**
     * Stores the transcript and settles every job waiting on it.
     * @returns `stale` when the attempt no longer holds the task: nothing was stored.
     */
    async complete(task: ClaimedTask, result: TaskResult, engineName: string): Promise<'stored' | 'stale' | 'failed'> {
      const settled = await inTransaction(db, (tx) => storeTaskResult(tx, task, result, engineName, deps.settle));
      if (!settled) return 'stale';
      deps.onTranscriptStored(task.transcriptId);
      await deps.afterCommit(settled.changes, settled.accounts);
      return noSpeech(task.transcriptId, settled) ? 'failed' : 'stored';
    },

    /**
     * Records a failed attempt: retried later while attempts remain, else the
     * episode settles `failed` (refunded once) in every job waiting on it.
     */
    async fail(task: ClaimedTask, failure: TaskFailure): Promise<'stale' | 'retry' | 'failed'> {
      const result = await inTransaction(db, (tx) => recordTaskFailure(tx, task, failure, deps.settle));
      if (result.outcome === 'failed') await deps.afterCommit(result.settled.changes, result.settled.accounts);
      return result.outcome;
    },

    /** Hands a task back untouched (the worker is stopping). */
    release: (task: ClaimedTask) => releaseTask(db, task),

    /** Announces a pool of `slots` workers, for the ETA; call every few seconds. */
    announce: (poolId: string, slots: number) => announceWorkerPool(db, poolId, slots),

    retire: (poolId: string) => retireWorkerPool(db, poolId),
  };
}

export type TaskApi = ReturnType<typeof createTaskApi>;
