import { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../transaction.js';
import { type JobQueue, type LaneWork, type LastTask, NO_WORK, type QueuedWork, type ScheduledTask } from './eta.js';
import type { Lane } from './lanes.js';

/**
 * The order workers claim in, as one number: running tasks first, then the
 * fast lane, then first come first served. Smaller is sooner.
 */
const ORDER_KEY = Prisma.sql`((((t.status <> 'running')::int * 2 + (t.lane <> 'fast')::int)::bigint * 1000000000000000) + t.seq)`;

/** Standard-lane tasks nearest a job that are scheduled one by one; those further ahead are summed. */
const DETAILED_TASKS = 256;

export interface QueueAhead extends JobQueue {
  /** Work still to do, per lane, queued before the job's last episode (its others included). */
  before: QueuedWork;
  /** The job's last episode in claim order; null when none is left. */
  last: LastTask | null;
  /** Episodes of other jobs ahead of the job's first one. */
  aheadEpisodes: number;
}

/** `tasks_left`: tasks still to do, each by the share of it left (what owes the lane's fixed cost). */
type Row = { lane: Lane; remaining: number | null; tasks_left: number | null; ahead: bigint | number };

function sumByLane(rows: Row[], extra: QueuedWork = NO_WORK): { before: QueuedWork; aheadEpisodes: number } {
  const before = { standard: { ...extra.standard }, fast: { ...extra.fast } };
  let aheadEpisodes = 0;
  for (const r of rows) {
    before[r.lane].audio += Number(r.remaining ?? 0);
    before[r.lane].tasks += Number(r.tasks_left ?? 0);
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
    SELECT t.id, t.lane, t.audio_seconds, t.progress, ${ORDER_KEY} AS k FROM job_episodes je JOIN transcription_tasks t ON t.id = je.task_id
    WHERE je.job_id = ${jobId}::uuid AND je.status = 'queued' AND t.status IN ('queued', 'running')`;
  const [last] = await db.$queryRaw<{ lane: Lane; audio_seconds: number; progress: number; k: bigint }[]>`
    SELECT lane, audio_seconds, progress, k FROM (${mine}) m ORDER BY k DESC LIMIT 1`;
  if (!last) return null;
  const rows = await db.$queryRaw<Row[]>`
    WITH mine AS (${mine})
    SELECT t.lane,
      sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining,
      sum(1 - t.progress)::float8 AS tasks_left,
      count(*) FILTER (WHERE ${ORDER_KEY} < (SELECT min(k) FROM mine) AND t.id NOT IN (SELECT id FROM mine)) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND ${ORDER_KEY} < ${last.k}
    GROUP BY t.lane`;
  const audio = Number(last.audio_seconds);
  const summed = sumByLane(rows);
  const ahead: QueueAhead = { ...summed, last: { lane: last.lane, remaining: audio * (1 - Number(last.progress)), audioSeconds: audio } };
  if (last.lane !== 'standard') return ahead;
  const detail = await db.$queryRaw<DetailRow[]>`
    WITH mine AS (${mine})
    SELECT t.audio_seconds, t.progress, (t.id IN (SELECT id FROM mine)) AS mine FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND t.lane = 'standard' AND ${ORDER_KEY} <= ${last.k}
    ORDER BY ${ORDER_KEY} DESC LIMIT ${DETAILED_TASKS}`;
  const tasks = detail.reverse().map(scheduled);
  return { ...ahead, schedule: { bulk: bulkBefore(summed.before.standard, tasks.slice(0, -1)), tasks } };
}

type DetailRow = { audio_seconds: number; progress: number; mine: boolean };

function scheduled(r: DetailRow): ScheduledTask {
  const audio = Number(r.audio_seconds);
  return { remaining: audio * (1 - Number(r.progress)), audioSeconds: audio, mine: r.mine };
}

/** The standard work ahead that is not among the detailed tasks. */
function bulkBefore(total: LaneWork, detailed: ScheduledTask[]): LaneWork {
  let audio = total.audio;
  let tasks = total.tasks;
  for (const t of detailed) {
    audio -= t.remaining;
    tasks -= t.audioSeconds > 0 ? t.remaining / t.audioSeconds : 1;
  }
  return { audio: Math.max(0, audio), tasks: Math.max(0, tasks) };
}

/**
 * What would stand before new episodes queued now on `lane`: every live task
 * for the standard lane; running and fast tasks for the fast lane.
 * @param added audio seconds of each new episode, in request order.
 */
export async function queueAheadOfNew(db: Tx, lane: Lane, added: number[]): Promise<QueueAhead> {
  const rows = await db.$queryRaw<Row[]>`
    SELECT t.lane, sum(t.audio_seconds * (1 - t.progress))::float8 AS remaining, sum(1 - t.progress)::float8 AS tasks_left, count(*) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND (t.status = 'running' OR t.lane = 'fast' OR ${lane} = 'standard')
    GROUP BY t.lane`;
  const lastAudio = added.at(-1);
  const others = { audio: added.slice(0, -1).reduce((n, x) => n + x, 0), tasks: Math.max(0, added.length - 1) };
  const summed = sumByLane(rows, { ...NO_WORK, [lane]: others });
  const ahead: QueueAhead = { ...summed, last: lastAudio === undefined ? null : { lane, remaining: lastAudio, audioSeconds: lastAudio } };
  if (lane !== 'standard' || lastAudio === undefined) return ahead;
  // The newest tasks are the nearest ahead: the new episodes queue after all of them.
  const mine = added.slice(-DETAILED_TASKS).map((a) => ({ remaining: a, audioSeconds: a, mine: true }));
  const detail = await db.$queryRaw<DetailRow[]>`
    SELECT t.audio_seconds, t.progress, false AS mine FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND t.lane = 'standard'
    ORDER BY ${ORDER_KEY} DESC LIMIT ${Math.max(0, DETAILED_TASKS - mine.length)}`;
  const theirs = detail.reverse().map(scheduled);
  // New episodes beyond the detail (a request of hundreds) stay in the bulk, drained first:
  // then no existing task is detailed either, and the order holds.
  const bulk = bulkBefore(summed.before.standard, [...theirs, ...mine.slice(0, -1)]);
  return { ...ahead, schedule: { bulk, tasks: [...theirs, ...mine] } };
}
