import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Logger } from '../../infra/logger.js';
import type { Clock } from '../clock.js';
import { inTransaction } from '../transaction.js';
import type { JobChange, SettleContext } from './finish-jobs.js';
import { recordTaskFailure, storeTaskResult, type TaskResult } from './settle-task.js';
import {
  announceWorkerPool,
  type ClaimedTask,
  claimTask,
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

  return {
    /** The next task for this worker, or null when there is none; its jobs become `processing`. */
    async claim(workerId: string): Promise<ClaimedTask | null> {
      const task = await claimTask(db, workerId);
      if (task) await jobsStarted(task.id);
      return task;
    },

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
    async complete(task: ClaimedTask, result: TaskResult, engineName: string): Promise<'stored' | 'stale'> {
      const settled = await inTransaction(db, (tx) => storeTaskResult(tx, task, result, engineName, deps.settle));
      if (!settled) return 'stale';
      deps.onTranscriptStored(task.transcriptId);
      await deps.afterCommit(settled.changes, settled.accounts);
      return 'stored';
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
