import { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../transaction.js';
import type { Lane } from './lanes.js';

/**
 * The order workers claim in, as one number: running tasks first, then the
 * fast lane, then first come first served. Smaller is sooner.
 */
const ORDER_KEY = Prisma.sql`((((t.status <> 'running')::int * 2 + (t.lane <> 'fast')::int)::bigint * 1000000000000000) + t.seq)`;

export interface QueueAhead {
  /** Audio seconds still to transcribe, per lane, up to and including the job's own episodes. */
  remaining: Record<Lane, number>;
  /** Episodes of other jobs ahead of the job's first one. */
  aheadEpisodes: number;
}

type Row = { lane: Lane; remaining: number | null; ahead: bigint | number };

function toAhead(rows: Row[], extra: Record<Lane, number> = { standard: 0, fast: 0 }): QueueAhead {
  const remaining = { ...extra };
  let aheadEpisodes = 0;
  for (const r of rows) {
    remaining[r.lane] += Number(r.remaining ?? 0);
    aheadEpisodes += Number(r.ahead);
  }
  return { remaining, aheadEpisodes };
}

/** Worker slots of the pools heard from within `ttlSeconds`; 0 when none is running. */
export async function liveSlots(db: Tx, ttlSeconds: number): Promise<number> {
  const rows = await db.$queryRaw<{ slots: bigint | null }[]>`
    SELECT sum(slots) AS slots FROM transcription_workers WHERE seen_at > now() - make_interval(secs => ${ttlSeconds})`;
  return Number(rows[0]?.slots ?? 0);
}

/** What stands before the unsettled episodes of job `jobId`, the job's own included. */
export async function queueAheadOfJob(db: Tx, jobId: string): Promise<QueueAhead | null> {
  const rows = await db.$queryRaw<Row[]>`
    WITH mine AS (
      SELECT t.id, ${ORDER_KEY} AS k FROM job_episodes je JOIN transcription_tasks t ON t.id = je.task_id
      WHERE je.job_id = ${jobId}::uuid AND je.status = 'queued' AND t.status IN ('queued', 'running')
    ), bounds AS (SELECT min(k) AS first_k, max(k) AS last_k FROM mine)
    SELECT t.lane,
      sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining,
      count(*) FILTER (WHERE ${ORDER_KEY} < bounds.first_k AND t.id NOT IN (SELECT id FROM mine)) AS ahead
    FROM transcription_tasks t, bounds
    WHERE t.status IN ('queued', 'running') AND ${ORDER_KEY} <= bounds.last_k
    GROUP BY t.lane`;
  if (rows.length === 0) return null;
  return toAhead(rows);
}

/**
 * What would stand before new episodes queued now on `lane`: every live task
 * for the standard lane; running and fast tasks for the fast lane.
 * @param added audio seconds of the new episodes.
 */
export async function queueAheadOfNew(db: Tx, lane: Lane, added: number): Promise<QueueAhead> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT t.lane, sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining, count(*) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND (t.status = 'running' OR t.lane = 'fast' OR ${lane} = 'standard')
    GROUP BY t.lane`;
  return toAhead(rows, { standard: lane === 'standard' ? added : 0, fast: lane === 'fast' ? added : 0 });
}
