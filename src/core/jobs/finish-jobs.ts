import type { Clock } from '../clock.js';
import * as ledger from '../ledger.js';
import { billableHours, prices } from '../pricing.js';
import { FAST_PREMIUM_PER_HOUR } from './lanes.js';
import type { Links } from '../links.js';
import type { MailOutbox } from '../mail/mail-outbox.js';
import type { Tx } from '../transaction.js';
import { completionMail } from './completion-mail.js';
import { jobDonePayload, type OnJobDone } from './job-done-payload.js';

export type JobStatus = 'queued' | 'processing' | 'done';

/** A job whose state moved in a transaction: published as `job.updated` after commit. */
export interface JobChange {
  jobId: string;
  accountId: string;
  status: JobStatus;
}

export interface SettleContext {
  clock: Clock;
  links: Links;
  outbox: Pick<MailOutbox, 'enqueue'>;
  onJobDone?: OnJobDone;
}

type JobEpisodeRow = {
  transcript_id: string;
  title: string;
  status: string;
  billed_hours: number;
  charge_reference: string | null;
  premium_reference: string | null;
  /** Length of the audio as transcribed; null for a transcript without one. */
  duration_seconds: number | null;
};

/**
 * A request is priced by the length it names (`secs`, or the feed's
 * duration); once the audio is transcribed its real length is known, and
 * hours billed beyond it are refunded (of the charge and of a premium not
 * already refunded). Each charge is refunded at most once, so this runs
 * when the job is done, after a late job's premium came back whole.
 */
async function refundUnheardHours(tx: Tx, e: JobEpisodeRow): Promise<void> {
  if (e.duration_seconds === null) return;
  const hours = billableHours(e.duration_seconds);
  const excess = e.billed_hours - hours;
  if (excess <= 0) return;
  const memo = `Refund: ${e.transcript_id} is ${Math.max(1, Math.round(e.duration_seconds / 60))} min of audio, billed as ${e.billed_hours} h; ${hours} h apply`;
  if (e.charge_reference) await ledger.refund(tx, e.charge_reference, memo, excess * prices.transcribePerHour);
  if (e.premium_reference) await ledger.refund(tx, e.premium_reference, memo, excess * FAST_PREMIUM_PER_HOUR);
}

type LockedJob = { id: string; account_id: string; status: JobStatus; fast: boolean; promise_seconds: number | null; created_at: Date; notify_email: string; webhook_url: string | null };

/** Locks jobs in id order, so two settlements touching the same jobs never deadlock. */
export async function lockJobs(tx: Tx, jobIds: readonly string[]): Promise<LockedJob[]> {
  if (jobIds.length === 0) return [];
  return tx.$queryRaw<LockedJob[]>`
    SELECT id, account_id, status, fast, promise_seconds, created_at, notify_email, webhook_url FROM jobs
    WHERE id = ANY(${[...jobIds]}::uuid[]) ORDER BY id FOR UPDATE`;
}

/** Whether a fast job finishing at `now` broke its promise. */
export function isLate(job: { fast: boolean; promise_seconds: number | null; created_at: Date }, now: Date): boolean {
  return job.fast && job.promise_seconds !== null && now.getTime() - job.created_at.getTime() > job.promise_seconds * 1000;
}

/**
 * Moves each locked job on after some of its episodes settled: `done` when
 * none is left queued (with the completion mail, the webhook hook and, when
 * a fast job is late, the premium refunded once per episode; hours billed
 * beyond the audio's real length refunded), else
 * `processing`. Runs in the transaction that settled the episodes.
 */
export async function finishJobs(tx: Tx, jobs: readonly LockedJob[], ctx: SettleContext): Promise<JobChange[]> {
  const changes: JobChange[] = [];
  for (const job of jobs) {
    if (job.status === 'done') continue;
    const episodes = await tx.$queryRaw<JobEpisodeRow[]>`
      SELECT je.transcript_id, je.title, je.status, je.billed_hours, je.charge_reference, je.premium_reference, t.duration_seconds
      FROM job_episodes je LEFT JOIN transcripts t ON t.transcript_id = je.transcript_id
      WHERE je.job_id = ${job.id}::uuid ORDER BY je.position`;
    const now = ctx.clock.now();
    if (episodes.some((e) => e.status === 'queued')) {
      if (job.status === 'queued') await tx.$executeRaw`UPDATE jobs SET status = 'processing', started_at = ${now} WHERE id = ${job.id}::uuid`;
      changes.push({ jobId: job.id, accountId: job.account_id, status: 'processing' });
      continue;
    }
    await tx.$executeRaw`UPDATE jobs SET status = 'done', finished_at = ${now}, started_at = COALESCE(started_at, ${now}) WHERE id = ${job.id}::uuid`;
    const late = isLate(job, now);
    // The mail speaks of a premium refunded for lateness only when one is: an episode that
    // failed or fell back had it back already, and one joined at no charge paid none.
    let premiumBack = false;
    for (const e of episodes) {
      if (late && e.premium_reference) {
        const posted = await ledger.refund(tx, e.premium_reference, `Fast-lane premium refunded: job ${job.id} finished later than promised`);
        premiumBack ||= posted !== null && !posted.duplicate;
      }
      if (e.status === 'ready') await refundUnheardHours(tx, e);
    }
    const refunded = await tx.$queryRaw<{ n: bigint | null }[]>`
      SELECT sum(amount) AS n FROM ledger_entries WHERE account_id = ${job.account_id}::uuid AND kind = 'refund' AND reference LIKE ${`refund:job:${job.id}:%`}`;
    const payload = jobDonePayload(ctx.links, job.id, episodes.map((e) => ({ transcriptId: e.transcript_id, title: e.title, status: e.status })));
    await ctx.outbox.enqueue(tx, completionMail(job.notify_email, payload, Number(refunded[0]?.n ?? 0), premiumBack));
    if (job.webhook_url && ctx.onJobDone) {
      await ctx.onJobDone(tx, { jobId: job.id, accountId: job.account_id, webhookUrl: job.webhook_url, payload });
    }
    changes.push({ jobId: job.id, accountId: job.account_id, status: 'done' });
  }
  return changes;
}
