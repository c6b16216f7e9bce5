import type { Tx } from '../transaction.js';
import type { Lane } from './lanes.js';

/**
 * The SQL of chunk tasks, one small function per statement. Like tasks, a
 * chunk is claimed with `FOR UPDATE SKIP LOCKED`, holds a lease, and every
 * later write names the claim's attempt: a worker whose lease ran out changes
 * nothing.
 */

/** A chunk as a worker holds it. */
export interface ClaimedChunk {
  taskId: string;
  taskAttempt: number;
  index: number;
  lane: Lane;
  startSeconds: number;
  endSeconds: number;
  /** The chunk's 16 kHz mono WAV. */
  audio: Buffer;
  attempt: number;
  failures: number;
  maxAttempts: number;
  leaseSeconds: number;
  /** The episode's vocabulary, as its task computed it when claimed. */
  vocabulary: string[];
}

/** One chunk of a split episode, as queued. */
export interface NewChunk {
  index: number;
  startSeconds: number;
  endSeconds: number;
  audio: Buffer;
}

export async function insertChunks(tx: Tx, taskId: string, taskAttempt: number, lane: Lane, chunks: readonly NewChunk[]): Promise<void> {
  for (const c of chunks) {
    await tx.$executeRaw`
      INSERT INTO transcription_chunks (task_id, task_attempt, idx, lane, start_seconds, end_seconds, audio)
      VALUES (${taskId}::uuid, ${taskAttempt}, ${c.index}, ${lane}, ${c.startSeconds}, ${c.endSeconds}, ${c.audio})`;
  }
}

type ChunkRow = {
  task_id: string;
  task_attempt: number;
  idx: number;
  lane: Lane;
  start_seconds: number;
  end_seconds: number;
  audio: Uint8Array;
  attempt: number;
  failures: number;
  max_attempts: number;
  lease_seconds: number;
  vocabulary: unknown;
};

/**
 * Claims the next chunk: a queued one whose retry time has come, or a
 * running one whose lease ran out (its worker died: a failed attempt). Oldest
 * split first, so episodes finish in the order they were started.
 */
export async function claimChunk(db: Tx, workerId: string): Promise<ClaimedChunk | null> {
  const rows = await db.$queryRaw<ChunkRow[]>`
    UPDATE transcription_chunks c SET
      status = 'running',
      attempt = c.attempt + 1,
      failures = c.failures + CASE WHEN c.status = 'running' THEN 1 ELSE 0 END,
      lease_until = now() + make_interval(secs => t.lease_seconds),
      worker_id = ${workerId}
    FROM (
      SELECT task_id, idx FROM transcription_chunks
      WHERE (status = 'queued' AND next_attempt_at <= now()) OR (status = 'running' AND lease_until < now())
      ORDER BY seq LIMIT 1 FOR UPDATE SKIP LOCKED
    ) pick, transcription_tasks t
    WHERE c.task_id = pick.task_id AND c.idx = pick.idx AND t.id = c.task_id
    RETURNING c.task_id, c.task_attempt, c.idx, c.lane, c.start_seconds, c.end_seconds, c.audio, c.attempt, c.failures, t.max_attempts, t.lease_seconds, t.vocabulary`;
  const r = rows[0];
  if (!r) return null;
  return {
    taskId: r.task_id,
    taskAttempt: r.task_attempt,
    index: r.idx,
    lane: r.lane,
    startSeconds: Number(r.start_seconds),
    endSeconds: Number(r.end_seconds),
    audio: Buffer.from(r.audio),
    attempt: r.attempt,
    failures: r.failures,
    maxAttempts: r.max_attempts,
    leaseSeconds: r.lease_seconds,
    vocabulary: Array.isArray(r.vocabulary) ? r.vocabulary.filter((v): v is string => typeof v === 'string') : [],
  };
}

/** Renews the chunk's lease. False when it is lost: the worker must stop. */
export async function heartbeatChunk(db: Tx, c: ClaimedChunk): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE transcription_chunks SET lease_until = now() + make_interval(secs => ${c.leaseSeconds})
    WHERE task_id = ${c.taskId}::uuid AND idx = ${c.index} AND attempt = ${c.attempt} AND status = 'running' AND lease_until >= now()`;
  return n === 1;
}

/** Locks the chunk for its final write if, and only if, this attempt still holds an unexpired lease. */
export async function lockOwnChunk(tx: Tx, c: ClaimedChunk): Promise<boolean> {
  const rows = await tx.$queryRaw<{ idx: number }[]>`
    SELECT idx FROM transcription_chunks
    WHERE task_id = ${c.taskId}::uuid AND idx = ${c.index} AND attempt = ${c.attempt} AND status = 'running' AND lease_until >= now()
    FOR UPDATE`;
  return rows.length === 1;
}

/** Stores a locked chunk's words and drops its audio. */
export async function finishChunk(tx: Tx, c: ClaimedChunk, result: unknown, slotSeconds: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcription_chunks SET status = 'done', audio = NULL, lease_until = NULL, result = ${JSON.stringify(result)}::jsonb, slot_seconds = ${slotSeconds}
    WHERE task_id = ${c.taskId}::uuid AND idx = ${c.index}`;
}

/** Puts a locked chunk back in the queue after a failed attempt, with exponential backoff. */
export async function retryChunkLater(tx: Tx, c: ClaimedChunk, error: string, retryDelaySeconds: number): Promise<void> {
  await tx.$executeRaw`
    UPDATE transcription_chunks SET status = 'queued', failures = failures + 1, lease_until = NULL, worker_id = NULL, last_error = ${error},
      next_attempt_at = now() + make_interval(secs => ${retryDelaySeconds} * power(2, failures))
    WHERE task_id = ${c.taskId}::uuid AND idx = ${c.index}`;
}

/** Gives a chunk back untouched (the worker is stopping): not a failure, claimable at once. */
export async function releaseChunk(db: Tx, c: ClaimedChunk): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE transcription_chunks SET status = 'queued', lease_until = NULL, worker_id = NULL, next_attempt_at = now()
    WHERE task_id = ${c.taskId}::uuid AND idx = ${c.index} AND attempt = ${c.attempt} AND status = 'running'`;
  return n === 1;
}

/** Chunks of the split not yet done, and how many there are in all. */
export async function chunkCounts(tx: Tx, taskId: string, taskAttempt: number): Promise<{ left: number; total: number }> {
  const [r] = await tx.$queryRaw<{ remaining: bigint; total: bigint }[]>`
    SELECT count(*) FILTER (WHERE status <> 'done') AS remaining, count(*) AS total
    FROM transcription_chunks WHERE task_id = ${taskId}::uuid AND task_attempt = ${taskAttempt}`;
  return { left: Number(r?.remaining ?? 0), total: Number(r?.total ?? 0) };
}

/** Every chunk's answer and slot time, in chunk order (all done). */
export async function chunkResults(tx: Tx, taskId: string, taskAttempt: number) {
  return tx.$queryRaw<{ idx: number; start_seconds: number; end_seconds: number; result: unknown; slot_seconds: number }[]>`
    SELECT idx, start_seconds, end_seconds, result, slot_seconds FROM transcription_chunks
    WHERE task_id = ${taskId}::uuid AND task_attempt = ${taskAttempt} ORDER BY idx`;
}

export async function deleteChunks(tx: Tx, taskId: string): Promise<void> {
  await tx.$executeRaw`DELETE FROM transcription_chunks WHERE task_id = ${taskId}::uuid`;
}
