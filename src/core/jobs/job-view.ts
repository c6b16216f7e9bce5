import type { Clock } from '../clock.js';
import type { Links } from '../links.js';
import type { Tx } from '../transaction.js';
import { estimateSeconds, type LaneRates, pollAfterSeconds } from './eta.js';
import type { JobStatus } from './finish-jobs.js';
import { pollUrl } from './job-done-payload.js';
import type { JobOptions } from './job-options.js';
import { type QueueAhead, liveSlots, queueAheadOfJobs } from './queue-state.js';
import { readLaneRates } from './throughput.js';

/** One episode of a job. */
export interface JobEpisodeView {
  transcriptId: string;
  title: string;
  /** `queued` until settled; then `ready`, or `failed` (its credits refunded). */
  status: 'queued' | 'ready' | 'failed';
  /** Credits charged for it. */
  charged: number;
  /** Why it failed; null otherwise. */
  error: string | null;
  /** Page URL, once ready. */
  url: string | null;
  transcriptUrl: string | null;
}

/** A job with its live status and estimate (spec 2.7). */
export interface JobView {
  id: string;
  accountId: string;
  status: JobStatus;
  fast: boolean;
  /** Fast lane, until done: seconds from creation by which the job is promised. */
  promiseSeconds: number | null;
  /** 0 once done. */
  estimatedSeconds: number;
  estimatedReadyAt: Date | null;
  queueAheadEpisodes: number;
  pollAfterSeconds: number | null;
  pollUrl: string;
  webhookUrl: string | null;
  notify: string;
  done: number;
  total: number;
  episodes: JobEpisodeView[];
  createdAt: Date;
  finishedAt: Date | null;
  /** Credits given back so far: failed episodes, late or fallen-back fast-lane premiums. */
  creditsRefunded: number;
}

type JobRow = {
  id: string;
  account_id: string;
  status: JobStatus;
  fast: boolean;
  promise_seconds: number | null;
  webhook_url: string | null;
  notify_email: string;
  total: number;
  created_at: Date;
  finished_at: Date | null;
};
type EpisodeRow = { job_id: string; transcript_id: string; title: string; status: JobEpisodeView['status']; charged: number; error: string | null };

export interface JobViewDeps {
  clock: Clock;
  links: Links;
  options: Pick<JobOptions, 'laneEngines' | 'workerTtlSeconds' | 'fastConcurrency'>;
}

/** Reads jobs as their owner sees them, with the ETA from the live queue and measured throughput. */
export function createJobViews({ clock, links, options }: JobViewDeps) {
  async function build(db: Tx, rows: JobRow[]): Promise<JobView[]> {
    if (rows.length === 0) return [];
    const ids = rows.map((r) => r.id);
    const episodes = await db.$queryRaw<EpisodeRow[]>`
      SELECT job_id, transcript_id, title, status, charged, error FROM job_episodes WHERE job_id = ANY(${ids}::uuid[]) ORDER BY job_id, position`;
    const refunds = await db.$queryRaw<{ job_id: string; n: bigint }[]>`
      SELECT split_part(reference, ':', 3) AS job_id, sum(amount) AS n FROM ledger_entries
      WHERE account_id = ${rows[0]!.account_id}::uuid AND kind = 'refund' AND reference LIKE 'refund:job:%'
        AND split_part(reference, ':', 3) = ANY(${ids})
      GROUP BY 1`;
    const refunded = new Map(refunds.map((r) => [r.job_id, Number(r.n)]));
    const open = rows.some((r) => r.status !== 'done');
    let rates: LaneRates | null = null;
    let slots = 1;
    let queues = new Map<string, QueueAhead | null>();
    if (open) {
      rates = await readLaneRates(db, options.laneEngines);
      slots = Math.max(1, await liveSlots(db, options.workerTtlSeconds));
      queues = await queueAheadOfJobs(db, rows.filter((r) => r.status !== 'done').map((r) => r.id));
    }
    const now = clock.now();
    const views: JobView[] = [];
    for (const r of rows) {
      const eps = episodes.filter((e) => e.job_id === r.id);
      const done = r.status === 'done';
      let estimatedSeconds = 0;
      let queueAheadEpisodes = 0;
      if (!done && rates) {
        const ahead = queues.get(r.id) ?? null;
        if (ahead) {
          estimatedSeconds = estimateSeconds(ahead, rates, slots, options.fastConcurrency);
          queueAheadEpisodes = ahead.aheadEpisodes;
        }
      }
      views.push({
        id: r.id,
        accountId: r.account_id,
        status: r.status,
        fast: r.fast,
        promiseSeconds: done ? null : r.promise_seconds,
        estimatedSeconds,
        estimatedReadyAt: done ? null : new Date(now.getTime() + estimatedSeconds * 1000),
        queueAheadEpisodes,
        pollAfterSeconds: done ? null : pollAfterSeconds(estimatedSeconds),
        pollUrl: pollUrl(links, r.id),
        webhookUrl: r.webhook_url,
        notify: r.notify_email,
        done: eps.filter((e) => e.status !== 'queued').length,
        total: r.total,
        episodes: eps.map((e) => ({
          transcriptId: e.transcript_id,
          title: e.title,
          status: e.status,
          charged: e.charged,
          error: e.error,
          url: e.status === 'ready' ? links.episodePage(e.transcript_id) : null,
          transcriptUrl: e.status === 'ready' ? links.transcript(e.transcript_id) : null,
        })),
        createdAt: r.created_at,
        finishedAt: r.finished_at,
        creditsRefunded: refunded.get(r.id) ?? 0,
      });
    }
    return views;
  }

  const columns = 'id, account_id, status, fast, promise_seconds, webhook_url, notify_email, total, created_at, finished_at';

  return {
    /** The job if it belongs to `accountId`, else null (another account's job is not found). */
    async get(db: Tx, accountId: string, jobId: string): Promise<JobView | null> {
      const rows = await db.$queryRawUnsafe<JobRow[]>(`SELECT ${columns} FROM jobs WHERE id = $1::uuid AND account_id = $2::uuid`, jobId, accountId);
      return (await build(db, rows))[0] ?? null;
    },

    /** `limit` of the account's jobs from `offset`, newest first, and how many there are. */
    async list(db: Tx, accountId: string, offset: number, limit: number): Promise<{ jobs: JobView[]; total: number }> {
      const rows = await db.$queryRawUnsafe<JobRow[]>(
        `SELECT ${columns} FROM jobs WHERE account_id = $1::uuid ORDER BY seq DESC LIMIT $2 OFFSET $3`,
        accountId,
        limit,
        offset,
      );
      const total = await db.job.count({ where: { accountId } });
      return { jobs: await build(db, rows), total };
    },

    /**
     * `limit` of the account's jobs created before job `afterId` (all when null), newest first:
     * a page that stays put while new jobs arrive. Null when `afterId` is no job of the account.
     */
    async listBefore(db: Tx, accountId: string, afterId: string | null, limit: number): Promise<{ jobs: JobView[]; total: number; hasMore: boolean } | null> {
      const before = afterId === null ? [] : await db.$queryRawUnsafe<{ seq: bigint }[]>('SELECT seq FROM jobs WHERE id = $1::uuid AND account_id = $2::uuid', afterId, accountId);
      if (afterId !== null && before.length === 0) return null;
      const rows = await db.$queryRawUnsafe<JobRow[]>(
        `SELECT ${columns} FROM jobs WHERE account_id = $1::uuid AND ($2::bigint IS NULL OR seq < $2::bigint) ORDER BY seq DESC LIMIT $3`,
        accountId,
        before[0]?.seq ?? null,
        limit + 1,
      );
      const total = await db.job.count({ where: { accountId } });
      return { jobs: await build(db, rows.slice(0, limit)), total, hasMore: rows.length > limit };
    },

    /** The account's jobs that are not done yet, oldest first (the start of `myJobsUpdated`). */
    async open(db: Tx, accountId: string): Promise<JobView[]> {
      const rows = await db.$queryRawUnsafe<JobRow[]>(`SELECT ${columns} FROM jobs WHERE account_id = $1::uuid AND status <> 'done' ORDER BY seq`, accountId);
      return build(db, rows);
    },
  };
}

export type JobViews = ReturnType<typeof createJobViews>;
