import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { Clock } from '../clock.js';
import type { Tx } from '../transaction.js';
import { isUuid } from './webhook-url.js';

/** The one event Podtext sends. */
export const JOB_DONE = 'job.done';

export type { JobDoneEpisode, JobDonePayload } from '../jobs/job-done-payload.js';
import type { JobDonePayload } from '../jobs/job-done-payload.js';

/** What the jobs module hands over when a job turns `done`. */
export interface JobDoneInput {
  jobId: string;
  accountId: string;
  /** The job's `webhook_url`, already checked by `assertWebhookUrl`; null or empty sends nothing. */
  webhookUrl: string | null | undefined;
  payload: JobDonePayload;
}

/** One attempt that reached a result. */
export interface WebhookAttemptView {
  at: Date;
  /** The receiver's HTTP status, or null when none came (timeout, refused, blocked). */
  status: number | null;
  /** Why the attempt failed; null when it succeeded. */
  error: string | null;
  durationMs: number;
}

/** The webhook of one job, for the job's `webhook` field. */
export interface WebhookDeliveryView {
  /** `pending` until a 2xx (`delivered`) or the retry schedule is spent (`failed`). */
  state: 'pending' | 'delivered' | 'failed';
  attempts: WebhookAttemptView[];
  /** When the next attempt is due; null once delivered or failed. */
  nextAttemptAt: Date | null;
}

/** The wire shape of {@link WebhookDeliveryView}, as REST embeds it in a job. */
export interface WebhookDeliveryWire {
  state: 'pending' | 'delivered' | 'failed';
  attempts: { at: string; status: number | null; error: string | null; duration_ms: number }[];
  next_attempt_at: string | null;
}

/** Maps the view to its snake_case wire shape. */
export function webhookDeliveryWire(view: WebhookDeliveryView): WebhookDeliveryWire {
  return {
    state: view.state,
    attempts: view.attempts.map((a) => ({ at: a.at.toISOString(), status: a.status, error: a.error, duration_ms: a.durationMs })),
    next_attempt_at: view.nextAttemptAt?.toISOString() ?? null,
  };
}

type Row = {
  jobId: string;
  status: string;
  nextAttemptAt: Date | null;
  attempts: { at: Date; statusCode: number | null; error: string | null; durationMs: number }[];
};

function toView(row: Row): WebhookDeliveryView {
  const state = row.status === 'delivered' ? 'delivered' : row.status === 'failed' ? 'failed' : 'pending';
  return {
    state,
    attempts: row.attempts.map((a) => ({ at: a.at, status: a.statusCode, error: a.error, durationMs: a.durationMs })),
    nextAttemptAt: state === 'pending' ? row.nextAttemptAt : null,
  };
}

/** Writing deliveries in the caller's transaction, and reading their history. */
export function createDeliveryLog(deps: { db: PrismaClient; clock: Clock }) {
  const { db, clock } = deps;
  const select = {
    jobId: true,
    status: true,
    nextAttemptAt: true,
    attempts: { select: { at: true, statusCode: true, error: true, durationMs: true }, orderBy: { attempt: 'asc' as const } },
  };

  return {
    /**
     * Queues the `job.done` event inside the transaction that marks the job
     * done, so the event is sent if and only if that commits, even when the
     * process dies right after. Enqueuing the same job twice keeps one delivery.
     * Wake the sender after commit by publishing `job.updated` (status `done`).
     * @returns the delivery id (sent as `X-Service-Delivery`), or null when the job has no webhook.
     */
    async enqueueJobDone(tx: Tx, input: JobDoneInput): Promise<string | null> {
      if (!input.webhookUrl) return null;
      const id = randomUUID();
      const now = clock.now();
      const created = await tx.webhookDelivery.createMany({
        data: [{ id, accountId: input.accountId, jobId: input.jobId, event: JOB_DONE, url: input.webhookUrl, payload: input.payload as never, nextAttemptAt: now, createdAt: now }],
        skipDuplicates: true,
      });
      if (created.count === 1) return id;
      const existing = await tx.webhookDelivery.findUniqueOrThrow({ where: { jobId_event: { jobId: input.jobId, event: JOB_DONE } }, select: { id: true } });
      return existing.id;
    },

    /** The webhook state of one job, or null when it has none. */
    async webhookDelivery(jobId: string): Promise<WebhookDeliveryView | null> {
      if (!isUuid(jobId)) return null;
      const row = await db.webhookDelivery.findUnique({ where: { jobId_event: { jobId, event: JOB_DONE } }, select });
      return row ? toView(row) : null;
    },

    /** The webhook state of many jobs in one query (a page of jobs); jobs without one are absent. */
    async webhookDeliveries(jobIds: string[]): Promise<Map<string, WebhookDeliveryView>> {
      const ids = jobIds.filter(isUuid);
      if (ids.length === 0) return new Map();
      const rows = await db.webhookDelivery.findMany({ where: { jobId: { in: ids }, event: JOB_DONE }, select });
      return new Map(rows.map((r) => [r.jobId, toView(r)]));
    },
  };
}

export type DeliveryLog = ReturnType<typeof createDeliveryLog>;
