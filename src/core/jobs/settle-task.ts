import type { TranscriptDoc } from '../transcripts/formats/transcript-doc.js';
import { countWords, saveTranscript } from '../transcripts/transcript-store.js';
import * as ledger from '../ledger.js';
import type { Tx } from '../transaction.js';
import { finishJobs, type JobChange, lockJobs, type SettleContext } from './finish-jobs.js';
import type { Lane } from './lanes.js';
import { type ClaimedTask, finishTask, lockOwnTask, retryTaskLater } from './task-queue.js';
import { recordThroughput } from './throughput.js';
import { grantIncludedUnlock } from './included-unlock.js';
import { REQUESTED_SHOW_ID } from './resolve-episodes.js';

/** What a worker hands in for a task it transcribed. */
export interface TaskResult {
  doc: TranscriptDoc;
  /** Engine and model as stored with the transcript. */
  engine: string;
  model: string;
  language: string | null;
  /** Decoded length in seconds. */
  durationSeconds: number;
  /** The lane whose engine produced the words: `standard` on a fast task is a fallback. */
  engineLane: Lane;
  /** Worker-slot seconds the task used, for the lane's measured throughput. */
  slotSeconds: number;
}

/** What a settlement changed, for the events published after commit. */
export interface Settled {
  changes: JobChange[];
  /** Accounts whose balance or unlocks changed. */
  accounts: string[];
  /** The audio yielded no words: the episode failed (NO_SPEECH) instead of being stored. */
  noSpeech?: boolean;
}

/** Why a task whose audio yielded no words fails (shown as the job episode's `error`). */
export const NO_SPEECH = 'no speech was recognised in the audio (silence, music or noise): nothing to transcribe';

type Outcome = { status: 'ready'; fellBack: boolean } | { status: 'failed'; error: string };

/**
 * Settles every job episode waiting on the task: unlocks (ready) or refunds
 * (failed), then moves the jobs on. Locks jobs before reading their episodes,
 * so two tasks of one job finishing together see each other's result.
 */
async function settleWaiting(tx: Tx, taskId: string, outcome: Outcome, ctx: SettleContext): Promise<Settled> {
  const waiting = await tx.$queryRaw<{ job_id: string }[]>`SELECT DISTINCT job_id FROM job_episodes WHERE task_id = ${taskId}::uuid AND status = 'queued'`;
  const jobs = await lockJobs(tx, waiting.map((w) => w.job_id));
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const now = ctx.clock.now();
  const settled = await tx.$queryRaw<{ job_id: string; transcript_id: string; charge_reference: string | null; premium_reference: string | null }[]>`
    UPDATE job_episodes SET status = ${outcome.status}, settled_at = ${now}, error = ${outcome.status === 'failed' ? outcome.error : null}
    WHERE task_id = ${taskId}::uuid AND status = 'queued'
    RETURNING job_id, transcript_id, charge_reference, premium_reference`;
  const accounts = new Set<string>();
  for (const e of settled) {
    const job = byId.get(e.job_id);
    if (!job) continue;
    if (outcome.status === 'ready') {
      await grantIncludedUnlock(tx, job.account_id, e.transcript_id, e.charge_reference);
      if (outcome.fellBack && e.premium_reference) {
        await ledger.refund(tx, e.premium_reference, `Fast-lane premium refunded: ${e.transcript_id} ran on the standard lane`);
      }
    } else {
      const memo = `Refund: ${e.transcript_id} could not be transcribed (${outcome.error.slice(0, 200)})`;
      if (e.charge_reference) await ledger.refund(tx, e.charge_reference, memo);
      if (e.premium_reference) await ledger.refund(tx, e.premium_reference, memo);
    }
    accounts.add(job.account_id);
  }
  const changes = await finishJobs(tx, jobs, ctx);
  return { changes, accounts: [...accounts] };
}

/**
 * Stores a transcribed task's transcript and settles everyone waiting on it,
 * all in the caller's transaction, if this attempt still holds its lease.
 * @returns null when the attempt is stale (lease ran out or the task was
 *   claimed again): nothing was written.
 */
export async function storeTaskResult(tx: Tx, task: ClaimedTask, result: TaskResult, engineName: string, ctx: SettleContext): Promise<Settled | null> {
  const own = await lockOwnTask(tx, task);
  if (!own) return null;
  return completeTask(tx, task.id, task.transcriptId, result, engineName, ctx);
}

/**
 * The one place a transcribed episode's transcript is stored: saved (unless
 * the publisher's own arrived meanwhile), the task done, the lane's
 * throughput measured, and every waiting job episode settled. The caller
 * holds the task's lock.
 */
export async function completeTask(tx: Tx, taskId: string, transcriptId: string, result: TaskResult, engineName: string, ctx: SettleContext): Promise<Settled> {
  // A publisher's own transcript may have arrived meanwhile (feed ingestion): it stays.
  const existing = await tx.transcript.findUnique({ where: { transcriptId }, select: { source: true } });
  if (existing?.source !== 'publisher' && countWords(result.doc) === 0) {
    // Silence, music or noise: no transcript to deliver, so nothing is stored for anyone to unlock and
    // every waiting job gets its credits back. The work was done all the same: it counts for the ETA.
    await recordThroughput(tx, result.engineLane, engineName, result.durationSeconds, result.slotSeconds);
    return { ...(await failTask(tx, taskId, transcriptId, NO_SPEECH, ctx)), noSpeech: true };
  }
  if (existing?.source !== 'publisher') {
    await saveTranscript(tx, {
      transcriptId,
      doc: result.doc,
      source: 'asr',
      engine: result.engine,
      model: result.model,
      language: result.language,
      durationSeconds: result.durationSeconds,
    });
  }
  // An episode requested by its audio URL has no feed to say how long it is: the first requester's `secs` gives way to the measured length.
  await tx.episode.updateMany({ where: { transcriptId, showId: REQUESTED_SHOW_ID }, data: { durationSeconds: Math.round(result.durationSeconds) } });
  await finishTask(tx, taskId, 'done', { engineLane: result.engineLane, audioSeconds: result.durationSeconds });
  await recordThroughput(tx, result.engineLane, engineName, result.durationSeconds, result.slotSeconds);
  // A fast job whose episode was transcribed by the standard lane's engine (a fallback, or a
  // standard task already running when the fast request joined it) gets its premium back.
  return settleWaiting(tx, taskId, { status: 'ready', fellBack: result.engineLane !== 'fast' }, ctx);
}

/**
 * Records a failed attempt: back in the queue with backoff while attempts
 * remain and the failure may pass; otherwise the task fails, the episode goes
 * back to `none`, and every waiting episode settles `failed` and is refunded.
 * @returns `stale` when this attempt no longer holds the task (nothing written).
 */
export async function recordTaskFailure(
  tx: Tx,
  task: ClaimedTask,
  failure: { message: string; permanent: boolean },
  ctx: SettleContext,
): Promise<{ outcome: 'stale' | 'retry' } | { outcome: 'failed'; settled: Settled }> {
  const own = await lockOwnTask(tx, task);
  if (!own) return { outcome: 'stale' };
  const message = failure.message.slice(0, 1000);
  if (!failure.permanent && own.failures + 1 < own.maxAttempts) {
    await retryTaskLater(tx, task.id, message);
    return { outcome: 'retry' };
  }
  return { outcome: 'failed', settled: await failTask(tx, task.id, task.transcriptId, message, ctx) };
}

/** Fails a locked task for good: the episode back to `none`, every waiting episode settled `failed` and refunded. */
export async function failTask(tx: Tx, taskId: string, transcriptId: string, message: string, ctx: SettleContext): Promise<Settled> {
  await finishTask(tx, taskId, 'failed', { error: message });
  await tx.$executeRaw`UPDATE episodes SET transcript_status = 'none', updated_at = now() WHERE transcript_id = ${transcriptId} AND transcript_status = 'processing'`;
  return settleWaiting(tx, taskId, { status: 'failed', error: message }, ctx);
}
