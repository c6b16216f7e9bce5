import type { PrismaClient } from '../../generated/prisma/client.js';
import type { JobDonePayload } from './delivery-log.js';

/** The account's signing secret as stored, sealed; null when the account has none yet. */
export interface SealedSecrets {
  sealedSecret: string;
  sealedPrevious: string | null;
  rotatedAt: Date | null;
}

/** A delivery a worker holds until its lease ends; `claim` fences its writes. */
export interface ClaimedDelivery {
  id: string;
  accountId: string;
  jobId: string;
  event: string;
  url: string;
  payload: JobDonePayload;
  claim: number;
  /** Attempts recorded before this one. */
  tries: number;
  /** Read in the same statement as the claim, to spare a query per delivery. */
  secrets: SealedSecrets | null;
}

/** How an attempt ended, as recorded. */
export interface AttemptResult {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  delivered: boolean;
  /** No retry can help (e.g. a URL that is not https): stop now. */
  permanent: boolean;
}

type ClaimRow = {
  id: string; account_id: string; job_id: string; event: string; url: string; payload: unknown; claim: number; tries: number;
  sealed_secret: string | null; sealed_previous: string | null; rotated_at: Date | null;
};

/**
 * The SQL of delivery rows: claiming with FOR UPDATE SKIP LOCKED and a lease,
 * and writing results fenced by the claim number, so that a worker whose
 * lease ran out cannot overwrite the worker that took over. One statement
 * each way: on PGlite every round trip counts.
 */
export function createDeliveryClaims(db: PrismaClient) {
  return {
    /** Takes the most overdue delivery due at `now` (or one whose lease ran out), or none. */
    async claim(now: Date, leaseSeconds: number): Promise<ClaimedDelivery | undefined> {
      const rows = await db.$queryRaw<ClaimRow[]>`
        WITH claimed AS (
          UPDATE webhook_deliveries
          SET status = 'sending', claim = claim + 1, lease_until = ${now}::timestamptz + make_interval(secs => ${leaseSeconds})
          WHERE id = (
            SELECT id FROM webhook_deliveries
            WHERE (status = 'pending' AND next_attempt_at <= ${now}::timestamptz)
               OR (status = 'sending' AND lease_until < ${now}::timestamptz)
            ORDER BY next_attempt_at LIMIT 1 FOR UPDATE SKIP LOCKED)
          RETURNING id, account_id, job_id, event, url, payload, claim, tries)
        SELECT c.*, s.sealed_secret, s.sealed_previous, s.rotated_at
        FROM claimed c LEFT JOIN webhook_secrets s ON s.account_id = c.account_id`;
      const r = rows[0];
      if (!r) return undefined;
      return {
        id: r.id,
        accountId: r.account_id,
        jobId: r.job_id,
        event: r.event,
        url: r.url,
        payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as JobDonePayload,
        claim: r.claim,
        tries: r.tries,
        secrets: r.sealed_secret === null ? null : { sealedSecret: r.sealed_secret, sealedPrevious: r.sealed_previous, rotatedAt: r.rotated_at },
      };
    },

    /**
     * Records the attempt and moves the delivery on: delivered, due again at
     * `retryAt`, or failed when that is null. Nothing is written when another
     * worker has claimed the row since (returns false).
     */
    async record(d: ClaimedDelivery, result: AttemptResult, retryAt: Date | null): Promise<boolean> {
      const status = result.delivered ? 'delivered' : retryAt && !result.permanent ? 'pending' : 'failed';
      const next = status === 'pending' ? retryAt : null;
      const finishedAt = status === 'pending' ? null : result.at;
      const tries = d.tries + 1;
      const written = await db.$queryRaw<{ attempt: number }[]>`
        WITH moved AS (
          UPDATE webhook_deliveries
          SET status = ${status}, tries = ${tries}, next_attempt_at = ${next}::timestamptz, lease_until = NULL, finished_at = ${finishedAt}::timestamptz
          WHERE id = ${d.id}::uuid AND claim = ${d.claim} AND status = 'sending'
          RETURNING id)
        INSERT INTO webhook_attempts (delivery_id, attempt, at, status_code, error, duration_ms)
        SELECT id, ${tries}, ${result.at}::timestamptz, ${result.statusCode}::int, ${result.error}, ${result.durationMs} FROM moved
        RETURNING attempt`;
      return written.length === 1;
    },

    /** Hands a claimed delivery back untouched (shutting down mid-attempt): due again at once. */
    async release(d: ClaimedDelivery): Promise<void> {
      await db.$executeRaw`
        UPDATE webhook_deliveries SET status = 'pending', lease_until = NULL
        WHERE id = ${d.id}::uuid AND claim = ${d.claim} AND status = 'sending'`;
    },
  };
}

export type DeliveryClaims = ReturnType<typeof createDeliveryClaims>;
