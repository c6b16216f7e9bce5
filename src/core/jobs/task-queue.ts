import { randomUUID } from 'node:crypto';
import type { Tx } from '../transaction.js';
import type { Lane } from './lanes.js';

/**
 * The SQL of the task queue, one small function per statement. Every write a
 * worker makes names the attempt it claimed: a worker whose lease ran out
 * (and whose task may have been claimed again, with a higher attempt) changes
 * nothing.
 */

/** A task as a worker holds it. */
export interface ClaimedTask {
  id: string;
  transcriptId: string;
  lane: Lane;
  audioUrl: string;
  /** Estimate until decoded. */
  audioSeconds: number;
  /** Longest audio paid for, in seconds. */
  maxSeconds: number;
  /** The claim's number: fences every later write. */
  attempt: number;
  /** Failed attempts before this claim, a lease that ran out included. */
  failures: number;
  maxAttempts: number;
  leaseSeconds: number;
}

type TaskRow = {
  id: string;
  transcript_id: string;
  lane: Lane;
  audio_url: string;
  audio_seconds: number;
  max_seconds: number;
  attempt: number;
  failures: number;
  max_attempts: number;
  lease_seconds: number;
};

function toClaimed(r: TaskRow): ClaimedTask {
  return {
    id: r.id,
    transcriptId: r.transcript_id,
    lane: r.lane,
    audioUrl: r.audio_url,
    audioSeconds: Number(r.audio_seconds),
    maxSeconds: r.max_seconds,
    attempt: r.attempt,
    failures: r.failures,
    maxAttempts: r.max_attempts,
    leaseSeconds: r.lease_seconds,
  };
}

export interface NewTask {
  transcriptId: string;
  lane: Lane;
  audioUrl: string;
  audioSeconds: number;
  maxSeconds: number;
  maxAttempts: number;
  leaseSeconds: number;
  retryDelaySeconds: number;
}

/**
 * Queues the episode's task, or joins the live one (locking it, so that it
 * cannot finish before the caller's job is recorded as waiting on it). A
 * joining fast request moves a still-queued task to the fast lane, and
 * raises the audio length it may decode to what was paid.
 * @returns null when the live task finished between the insert and the join
 *   (the caller starts over: the episode may be ready now).
 */
export async function queueOrJoinTask(tx: Tx, t: NewTask): Promise<{ id: string; created: boolean; running: boolean } | null> {
  const inserted = await tx.$queryRaw<{ id: string }[]>`
    INSERT INTO transcription_tasks (id, transcript_id, lane, audio_url, audio_seconds, max_seconds, max_attempts, lease_seconds, retry_delay_seconds)
    VALUES (${randomUUID()}::uuid, ${t.transcriptId}, ${t.lane}, ${t.audioUrl}, ${t.audioSeconds}, ${t.maxSeconds}, ${t.maxAttempts}, ${t.leaseSeconds}, ${t.retryDelaySeconds})
    ON CONFLICT (transcript_id) WHERE status IN ('queued', 'running') DO NOTHING
    RETURNING id`;
  if (inserted[0]) return { id: inserted[0].id, created: true, running: false };
  const joined = await tx.$queryRaw<{ id: string; running: boolean }[]>`
    UPDATE transcription_tasks SET
      max_seconds = GREATEST(max_seconds, ${t.maxSeconds}),
      lane = CASE WHEN status = 'queued' AND ${t.lane} = 'fast' THEN 'fast' ELSE lane END
    WHERE id = (SELECT id FROM transcription_tasks WHERE transcript_id = ${t.transcriptId} AND status IN ('queued', 'running') FOR UPDATE)
    RETURNING id, status = 'running' AS running`;
  return joined[0] ? { id: joined[0].id, created: false, running: joined[0].running } : null;
}

/**
 * Claims the next task: a queued one whose retry time has come, or a running
 * one whose lease ran out (its worker died; that counts as a failure).
 * Fast lane first, then first come first served. `SKIP LOCKED` lets any
 * number of workers in any number of processes claim at once, none twice.
 */
export async function claimTask(db: Tx, workerId: string, onlyLane: Lane | null = null): Promise<ClaimedTask | null> {
  const rows = await db.$queryRaw<TaskRow[]>`
    UPDATE transcription_tasks t SET
      status = 'running',
      attempt = t.attempt + 1,
      failures = t.failures + CASE WHEN t.status = 'running' THEN 1 ELSE 0 END,
      lease_until = now() + make_interval(secs => t.lease_seconds),
      worker_id = ${workerId}, stage = 'claimed', progress = 0, claimed_at = now()
    FROM (
      SELECT id FROM transcription_tasks
      WHERE ((status = 'queued' AND next_attempt_at <= now()) OR (status = 'running' AND lease_until < now()))
        AND (${onlyLane}::text IS NULL OR lane = ${onlyLane}::text)
      ORDER BY (lane <> 'fast'), seq LIMIT 1 FOR UPDATE SKIP LOCKED
    ) pick
    WHERE t.id = pick.id
    RETURNING t.id, t.transcript_id, t.lane, t.audio_url, t.audio_seconds, t.max_seconds, t.attempt, t.failures, t.max_attempts, t.lease_seconds`;
  return rows[0] ? toClaimed(rows[0]) : null;
}

export interface Progress {
  stage: string;
  /** 0–1 of the recognition done. */
  progress: number;
  /** Measured length once decoded. */
  audioSeconds?: number;
}

/**
 * Renews the lease and records the stage. False when the lease is lost (ran
 * out, or the task was claimed again): the worker must stop.
 */
export async function heartbeatTask(db: Tx, task: ClaimedTask, p: Progress): Promise<boolean> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    UPDATE transcription_tasks SET
      lease_until = now() + make_interval(secs => lease_seconds), stage = ${p.stage}, progress = ${p.progress},
      audio_seconds = COALESCE(${p.audioSeconds ?? null}::real, audio_seconds)
    WHERE id = ${task.id}::uuid AND attempt = ${task.attempt} AND status = 'running' AND lease_until >= now()
    RETURNING id`;
  return rows.length === 1;
}

/**
 * Locks the task for its final write if, and only if, this attempt still
 * holds an unexpired lease: the fence against late writers.
 */
export async function lockOwnTask(tx: Tx, task: ClaimedTask): Promise<{ failures: number; maxAttempts: number; retryDelaySeconds: number; lane: Lane } | null> {
  const rows = await tx.$queryRaw<{ failures: number; max_attempts: number; retry_delay_seconds: number; lane: Lane }[]>`
    SELECT failures, max_attempts, retry_delay_seconds, lane FROM transcription_tasks
    WHERE id = ${task.id}::uuid AND attempt = ${task.attempt} AND status = 'running' AND lease_until >= now()
    FOR UPDATE`;
  const r = rows[0];
  return r ? { failures: r.failures, maxAttempts: r.max_attempts, retryDelaySeconds: Number(r.retry_delay_seconds), lane: r.lane } : null;
}

/** Marks a locked task finished (`done` or `failed`). */
export async function finishTask(tx: Tx, taskId: string, status: 'done' | 'failed', fields: { engineLane?: Lane | null; error?: string | null; audioSeconds?: number | null }): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcription_tasks SET status = ${status}, lease_until = NULL, finished_at = now(), progress = 1,
      stage = ${status}, engine_lane = ${fields.engineLane ?? null}, last_error = ${fields.error ?? null},
      audio_seconds = COALESCE(${fields.audioSeconds ?? null}::real, audio_seconds)
    WHERE id = ${taskId}::uuid`;
}

/** Puts a locked task back in the queue after a failed attempt, with exponential backoff. */
export async function retryTaskLater(tx: Tx, taskId: string, error: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcription_tasks SET status = 'queued', failures = failures + 1, lease_until = NULL, worker_id = NULL,
      stage = NULL, progress = 0, last_error = ${error},
      next_attempt_at = now() + make_interval(secs => retry_delay_seconds * power(2, failures))
    WHERE id = ${taskId}::uuid`;
}

/** Gives a task back untouched (the worker is stopping): not a failure, claimable at once. */
export async function releaseTask(db: Tx, task: ClaimedTask): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE transcription_tasks SET status = 'queued', lease_until = NULL, worker_id = NULL, stage = NULL, progress = 0, next_attempt_at = now()
    WHERE id = ${task.id}::uuid AND attempt = ${task.attempt} AND status = 'running'`;
  return n === 1;
}

/** Jobs waiting on a task that still say `queued`: they are processing now. */
export async function markJobsProcessing(db: Tx, taskId: string, now: Date): Promise<{ id: string; account_id: string }[]> {
  return db.$queryRaw<{ id: string; account_id: string }[]>`
    UPDATE jobs SET status = 'processing', started_at = ${now}
    WHERE status = 'queued' AND id IN (SELECT job_id FROM job_episodes WHERE task_id = ${taskId}::uuid AND status = 'queued')
    RETURNING id, account_id`;
}

/** Announces a worker pool (or renews the announcement) for the ETA's slot count. */
export async function announceWorkerPool(db: Tx, id: string, slots: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO transcription_workers (id, slots) VALUES (${id}, ${slots})
    ON CONFLICT (id) DO UPDATE SET slots = EXCLUDED.slots, seen_at = now()`;
  // Pools that died without saying so: forget them after a day.
  await db.$executeRaw`DELETE FROM transcription_workers WHERE seen_at < now() - interval '1 day'`;
}

export async function retireWorkerPool(db: Tx, id: string): Promise<void> {
  await db.$executeRaw`DELETE FROM transcription_workers WHERE id = ${id}`;
}

/**
 * Hands a split task over to its chunk tasks: no worker holds it any more
 * (no lease, so it is not reclaimed), and it is finished by whichever worker
 * stores its last chunk. Fenced like every write.
 */
/** What a split records on its task: the lane its chunks run on, the measured length, the time spent so far, and the vocabulary its chunks are recognised with. */
export interface HandOff {
  engineLane: Lane;
  audioSeconds: number;
  splitSeconds: number;
  vocabulary: readonly string[];
}

export async function handOffTask(tx: Tx, task: ClaimedTask, f: HandOff): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE transcription_tasks SET lease_until = NULL, worker_id = NULL, stage = 'chunks', progress = 0,
      engine_lane = ${f.engineLane}, audio_seconds = ${f.audioSeconds}, split_seconds = ${f.splitSeconds},
      vocabulary = ${JSON.stringify(f.vocabulary)}::jsonb
    WHERE id = ${task.id}::uuid AND attempt = ${task.attempt} AND status = 'running' AND lease_until >= now()`;
  return n === 1;
}

/** A task waiting on its chunks, locked for a chunk's final write; null when it is no longer waiting on that split. */
export async function lockSplitTask(tx: Tx, taskId: string, attempt: number) {
  const rows = await tx.$queryRaw<{ transcript_id: string; audio_seconds: number; split_seconds: number; retry_delay_seconds: number; max_attempts: number }[]>`
    SELECT transcript_id, audio_seconds, split_seconds, retry_delay_seconds, max_attempts FROM transcription_tasks
    WHERE id = ${taskId}::uuid AND attempt = ${attempt} AND status = 'running' AND stage = 'chunks'
    FOR UPDATE`;
  const r = rows[0];
  return r ? { transcriptId: r.transcript_id, audioSeconds: Number(r.audio_seconds), splitSeconds: Number(r.split_seconds), retryDelaySeconds: Number(r.retry_delay_seconds), maxAttempts: r.max_attempts } : null;
}

/** Records how far a split task's chunks are, for the ETA. */
export async function setTaskProgress(tx: Tx, taskId: string, progress: number): Promise<void> {
  await tx.$executeRaw`UPDATE transcription_tasks SET progress = ${progress} WHERE id = ${taskId}::uuid`;
}
