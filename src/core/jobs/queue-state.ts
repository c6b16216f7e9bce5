import { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../transaction.js';
import { type LastTask, NO_WORK, type QueuedWork } from './eta.js';
import type { Lane } from './lanes.js';

/**
 * The order workers claim in, as one number: running tasks first, then the
 * fast lane, then first come first served. Smaller is sooner.
 */
const ORDER_KEY = Prisma.sql`((((t.status <> 'running')::int * 2 + (t.lane <> 'fast')::int)::bigint * 1000000000000000) + t.seq)`;

export interface QueueAhead {
  /** Work still to do, per lane, queued before the job's last episode (its others included). */
  before: QueuedWork;
  /** The job's last episode in claim order; null when none is left. */
  last: LastTask | null;
  /** Episodes of other jobs ahead of the job's first one. */
  aheadEpisodes: number;
}

type Row = { lane: Lane; remaining: number | null; queued: bigint | number; ahead: bigint | number };

function sumByLane(rows: Row[], extra: QueuedWork = NO_WORK): { before: QueuedWork; aheadEpisodes: number } {
  const before = { standard: { ...extra.standard }, fast: { ...extra.fast } };
  let aheadEpisodes = 0;
  for (const r of rows) {
    before[r.lane].audio += Number(r.remaining ?? 0);
    before[r.lane].tasks += Number(r.queued);
    aheadEpisodes += Number(r.ahead);
  }
  return { before, aheadEpisodes };
}

/** Worker slots of the pools heard from within `ttlSeconds`; 0 when none is running. */
export async function liveSlots(db: Tx, ttlSeconds: number): Promise<number> {
  const rows = await db.$queryRaw<{ slots: bigint | null }[]>`
    SELECT sum(slots) AS slots FROM transcription_workers WHERE seen_at > now() - make_interval(secs => ${ttlSeconds})`;
  return Number(rows[0]?.slots ?? 0);
}

/** What stands before the unsettled episodes of job `jobId`, and its last one. */
export async function queueAheadOfJob(db: Tx, jobId: string): Promise<QueueAhead | null> {
  const mine = Prisma.sql`
    SELECT t.id, t.lane, t.audio_seconds, t.progress, t.status, ${ORDER_KEY} AS k FROM job_episodes je JOIN transcription_tasks t ON t.id = je.task_id
    WHERE je.job_id = ${jobId}::uuid AND je.status = 'queued' AND t.status IN ('queued', 'running')`;
  const [last] = await db.$queryRaw<{ lane: Lane; audio_seconds: number; progress: number; status: string; k: bigint }[]>`
    SELECT lane, audio_seconds, progress, status, k FROM (${mine}) m ORDER BY k DESC LIMIT 1`;
  if (!last) return null;
  const rows = await db.$queryRaw<Row[]>`
    WITH mine AS (${mine})
    SELECT t.lane,
      sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining,
      count(*) FILTER (WHERE t.status = 'queued') AS queued,
      count(*) FILTER (WHERE ${ORDER_KEY} < (SELECT min(k) FROM mine) AND t.id NOT IN (SELECT id FROM mine)) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND ${ORDER_KEY} < ${last.k}
    GROUP BY t.lane`;
  const audio = Number(last.audio_seconds);
  return { ...sumByLane(rows), last: { lane: last.lane, remaining: audio * (1 - Number(last.progress)), audioSeconds: audio, queued: last.status === 'queued' } };
}

/**
 * What would stand before new episodes queued now on `lane`: every live task
 * for the standard lane; running and fast tasks for the fast lane.
 * @param added audio seconds of each new episode, in request order.
 */
export async function queueAheadOfNew(db: Tx, lane: Lane, added: number[]): Promise<QueueAhead> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT t.lane, sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining, count(*) FILTER (WHERE t.status = 'queued') AS queued, count(*) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND (t.status = 'running' OR t.lane = 'fast' OR ${lane} = 'standard')
    GROUP BY t.lane`;
  const lastAudio = added.at(-1);
  const others = { audio: added.slice(0, -1).reduce((n, x) => n + x, 0), tasks: Math.max(0, added.length - 1) };
  return {
    ...sumByLane(rows, { ...NO_WORK, [lane]: others }),
    last: lastAudio === undefined ? null : { lane, remaining: lastAudio, audioSeconds: lastAudio, queued: true },
  };
}
