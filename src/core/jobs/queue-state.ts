import { Prisma } from '../../generated/prisma/client.js';
import type { Tx } from '../transaction.js';
import { CHUNK_SECONDS, type JobQueue, type LaneWork, type LastTask, NO_WORK, type QueuedWork, type ScheduledTask } from './eta.js';
import type { Lane } from './lanes.js';

/**
 * The order workers claim in, as one number: running tasks first, then the
 * fast lane, then first come first served. Smaller is sooner.
 */
const ORDER_KEY = Prisma.sql`((((t.status <> 'running')::int * 2 + (t.lane <> 'fast')::int)::bigint * 1000000000000000) + t.seq)`;

/**
 * The lane whose workers do a task's work, which the estimates count it on: a
 * fast-lane task that fell back (its engine failed, or was unavailable when
 * claimed) is split into chunks for the standard lane's slots.
 */
const WORK_LANE = Prisma.sql`coalesce(t.engine_lane, t.lane)`;

/**
 * What a live task leaves to do before work queued on the fast lane (`fast`,
 * an SQL boolean): audio seconds and its share of the lane's fixed cost.
 * A running standard-lane task holds its slot until its split (an episode of
 * one chunk: until its words), and workers claim fast-lane tasks before any
 * chunk: it holds a fast one back by its split and one chunk at most, not by
 * the rest of its episode. Work on the standard lane waits for all of it.
 */
function workLeft(fast: Prisma.Sql): Prisma.Sql {
  const inHand = Prisma.sql`(${fast} AND t.status = 'running' AND ${WORK_LANE} = 'standard')`;
  return Prisma.sql`
    sum(CASE WHEN ${inHand} THEN least(t.audio_seconds * (1 - t.progress), ${CHUNK_SECONDS}) ELSE t.audio_seconds * (1 - t.progress) END)::float8 AS remaining,
    sum(CASE WHEN ${inHand} AND t.stage = 'chunks' THEN 0 ELSE 1 - t.progress END)::float8 AS tasks_left`;
}

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

/**
 * What stands before the unsettled episodes of each job, and its last one;
 * null for a job with none left. Every job of a page in three statements: a
 * list of open jobs costs about what one does, however deep the queue.
 */
export async function queueAheadOfJobs(db: Tx, jobIds: string[]): Promise<Map<string, QueueAhead | null>> {
  const out = new Map<string, QueueAhead | null>(jobIds.map((id) => [id, null]));
  if (jobIds.length === 0) return out;
  const mine = Prisma.sql`
    SELECT je.job_id, t.id, ${WORK_LANE} AS lane, t.audio_seconds, t.progress, ${ORDER_KEY} AS k,
      CASE WHEN t.status = 'running' THEN extract(epoch FROM now() - t.claimed_at)::float8 END AS running_seconds,
      CASE WHEN t.status = 'queued' AND t.next_attempt_at > now() THEN extract(epoch FROM t.next_attempt_at - now())::float8 END AS wait_seconds
    FROM job_episodes je JOIN transcription_tasks t ON t.id = je.task_id
    WHERE je.job_id = ANY(${jobIds}::uuid[]) AND je.status = 'queued' AND t.status IN ('queued', 'running')`;
  const own = await db.$queryRaw<{ job_id: string; id: string; lane: Lane; audio_seconds: number; progress: number; k: bigint; running_seconds: number | null; wait_seconds: number | null }[]>`${mine}`;
  if (own.length === 0) return out;
  type Own = (typeof own)[number];
  const jobs = new Map<string, { last: Own; ids: Set<string>; retry: Own | null }>();
  const later = (a: Own | null, b: Own) => (b.wait_seconds !== null && (a === null || Number(b.wait_seconds) > Number(a.wait_seconds)) ? b : a);
  for (const task of own) {
    const job = jobs.get(task.job_id);
    if (!job) jobs.set(task.job_id, { last: task, ids: new Set([task.id]), retry: later(null, task) });
    else {
      job.ids.add(task.id);
      if (task.k > job.last.k) job.last = task;
      job.retry = later(job.retry, task);
    }
  }
  const rows = await db.$queryRaw<(Row & { job_id: string })[]>`
    WITH bounds AS (
      SELECT job_id, min(k) AS first_k, max(k) AS last_k, (array_agg(lane ORDER BY k DESC))[1] = 'fast' AS last_fast
      FROM (${mine}) m GROUP BY job_id)
    SELECT b.job_id, ${WORK_LANE} AS lane, ${workLeft(Prisma.sql`b.last_fast`)},
      -- Before the job's first task nothing is the job's own.
      count(*) FILTER (WHERE ${ORDER_KEY} < b.first_k) AS ahead
    FROM bounds b JOIN transcription_tasks t ON t.status IN ('queued', 'running') AND ${ORDER_KEY} < b.last_k
    GROUP BY 1, 2`;
  // Standard jobs are scheduled task by task over the tasks nearest below their last one:
  // one window of the queue covers every job of the page.
  const lastKeys = [...jobs.values()].filter((j) => j.last.lane === 'standard').map((j) => j.last.k);
  const detail = lastKeys.length
    ? await db.$queryRaw<(DetailRow & { id: string; k: bigint })[]>`
        SELECT t.id, t.audio_seconds, t.progress, false AS mine, ${ORDER_KEY} AS k FROM transcription_tasks t
        WHERE t.status IN ('queued', 'running') AND ${WORK_LANE} = 'standard' AND ${ORDER_KEY} <= ${lastKeys.reduce((a, b) => (b > a ? b : a))}
          AND ${ORDER_KEY} >= coalesce((
            SELECT ${ORDER_KEY} FROM transcription_tasks t
            WHERE t.status IN ('queued', 'running') AND ${WORK_LANE} = 'standard' AND ${ORDER_KEY} <= ${lastKeys.reduce((a, b) => (b < a ? b : a))}
            ORDER BY ${ORDER_KEY} DESC OFFSET ${DETAILED_TASKS - 1} LIMIT 1), -1)
        ORDER BY ${ORDER_KEY}`
    : [];
  for (const [jobId, { last, ids, retry }] of jobs) {
    const summed = sumByLane(rows.filter((r) => r.job_id === jobId));
    const audio = Number(last.audio_seconds);
    const runningSeconds = last.running_seconds === null ? undefined : Math.max(0, Number(last.running_seconds));
    const ahead: QueueAhead = { ...summed, last: { lane: last.lane, remaining: audio * (1 - Number(last.progress)), audioSeconds: audio, runningSeconds } };
    if (retry) {
      const retryAudio = Number(retry.audio_seconds);
      ahead.retry = { waitSeconds: Number(retry.wait_seconds), task: { lane: retry.lane, remaining: retryAudio, audioSeconds: retryAudio } };
    }
    if (last.lane === 'standard') {
      const upTo = detail.filter((d) => d.k <= last.k);
      const tasks = upTo.slice(-DETAILED_TASKS).map((d) => scheduled({ ...d, mine: ids.has(d.id) }));
      ahead.schedule = { bulk: bulkBefore(summed.before.standard, tasks.slice(0, -1)), tasks };
    }
    out.set(jobId, ahead);
  }
  return out;
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
    SELECT ${WORK_LANE} AS lane, ${workLeft(Prisma.sql`${lane}::text = 'fast'`)}, count(*) AS ahead
    FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND (t.status = 'running' OR t.lane = 'fast' OR ${lane} = 'standard')
    GROUP BY 1`;
  const lastAudio = added.at(-1);
  const others = { audio: added.slice(0, -1).reduce((n, x) => n + x, 0), tasks: Math.max(0, added.length - 1) };
  const summed = sumByLane(rows, { ...NO_WORK, [lane]: others });
  const ahead: QueueAhead = { ...summed, last: lastAudio === undefined ? null : { lane, remaining: lastAudio, audioSeconds: lastAudio } };
  if (lane !== 'standard' || lastAudio === undefined) return ahead;
  // The newest tasks are the nearest ahead: the new episodes queue after all of them.
  const mine = added.slice(-DETAILED_TASKS).map((a) => ({ remaining: a, audioSeconds: a, mine: true }));
  const detail = await db.$queryRaw<DetailRow[]>`
    SELECT t.audio_seconds, t.progress, false AS mine FROM transcription_tasks t
    WHERE t.status IN ('queued', 'running') AND ${WORK_LANE} = 'standard'
    ORDER BY ${ORDER_KEY} DESC LIMIT ${Math.max(0, DETAILED_TASKS - mine.length)}`;
  const theirs = detail.reverse().map(scheduled);
  // New episodes beyond the detail (a request of hundreds) stay in the bulk, drained first:
  // then no existing task is detailed either, and the order holds.
  const bulk = bulkBefore(summed.before.standard, [...theirs, ...mine.slice(0, -1)]);
  return { ...ahead, schedule: { bulk, tasks: [...theirs, ...mine] } };
}
