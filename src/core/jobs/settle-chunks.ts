import type { AsrResult } from '../../infra/asr/asr-engine.js';
import { stitch } from '../../infra/asr/transcribe-chunked.js';
import type { Tx } from '../transaction.js';
import { asrDoc } from './asr-doc.js';
import { chunkCounts, chunkResults, type ClaimedChunk, deleteChunks, finishChunk, lockOwnChunk, retryChunkLater } from './chunk-queue.js';
import type { SettleContext } from './finish-jobs.js';
import type { Lane } from './lanes.js';
import { completeTask, failTask, type Settled } from './settle-task.js';
import { lockSplitTask, setTaskProgress } from './task-queue.js';

/**
 * Stores one chunk's words. The task row is locked first (the lock order of
 * every settlement: task, then jobs, then account), so chunks landing at the
 * same moment in different processes queue up on it and exactly one of them
 * sees none left: that one stitches the episode and settles it, in the same
 * transaction.
 * @returns null when the attempt is stale (nothing written); `settled` null
 *   while other chunks are still out.
 */
export async function storeChunkResult(
  tx: Tx,
  chunk: ClaimedChunk,
  result: AsrResult,
  slotSeconds: number,
  engines: Record<Lane, { name: string; model: string }>,
  ctx: SettleContext,
): Promise<{ settled: Settled | null; transcriptId: string } | null> {
  const task = await lockSplitTask(tx, chunk.taskId, chunk.taskAttempt);
  if (!task || !(await lockOwnChunk(tx, chunk))) return null;
  await finishChunk(tx, chunk, result, slotSeconds);
  const { left, total } = await chunkCounts(tx, chunk.taskId, chunk.taskAttempt);
  if (left > 0) {
    await setTaskProgress(tx, chunk.taskId, (total - left) / total);
    return { settled: null, transcriptId: task.transcriptId };
  }
  const rows = await chunkResults(tx, chunk.taskId, chunk.taskAttempt);
  const engine = engines[chunk.lane];
  const words = stitch(
    engine,
    rows.map((r) => ({ index: r.idx, startSeconds: Number(r.start_seconds), endSeconds: Number(r.end_seconds) })),
    rows.map((r) => r.result as AsrResult),
  );
  const slotTotal = task.splitSeconds + rows.reduce((n, r) => n + Number(r.slot_seconds ?? 0), 0);
  await deleteChunks(tx, chunk.taskId);
  const language = words.language || null;
  const settled = await completeTask(
    tx,
    chunk.taskId,
    task.transcriptId,
    {
      doc: asrDoc(words.words, language, words.wordTimesEstimated),
      engine: words.engine,
      model: words.model,
      language,
      durationSeconds: task.audioSeconds,
      engineLane: chunk.lane,
      slotSeconds: slotTotal,
    },
    engine.name,
    ctx,
  );
  return { settled, transcriptId: task.transcriptId };
}

/**
 * Records a chunk's failed attempt: back in the queue with backoff while its
 * attempts last and the failure may pass; otherwise the whole episode fails
 * (refunded once, as a failed task is).
 */
export async function recordChunkFailure(
  tx: Tx,
  chunk: ClaimedChunk,
  failure: { message: string; permanent: boolean },
  ctx: SettleContext,
): Promise<{ outcome: 'stale' | 'retry' } | { outcome: 'failed'; settled: Settled }> {
  const task = await lockSplitTask(tx, chunk.taskId, chunk.taskAttempt);
  if (!task || !(await lockOwnChunk(tx, chunk))) return { outcome: 'stale' };
  const message = `chunk ${chunk.index + 1}: ${failure.message}`.slice(0, 1000);
  if (!failure.permanent && chunk.failures + 1 < chunk.maxAttempts) {
    await retryChunkLater(tx, chunk, message, task.retryDelaySeconds);
    return { outcome: 'retry' };
  }
  await deleteChunks(tx, chunk.taskId);
  return { outcome: 'failed', settled: await failTask(tx, chunk.taskId, task.transcriptId, message, ctx) };
}
