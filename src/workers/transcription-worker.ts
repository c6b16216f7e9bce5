import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { JobService } from '../core/jobs/job-service.js';
import { performance } from 'node:perf_hooks';
import type { ClaimedChunk } from '../core/jobs/chunk-queue.js';
import type { ClaimedTask } from '../core/jobs/task-queue.js';
import type { EventBus } from '../infra/events/event-bus.js';
import type { Logger } from '../infra/logger.js';
import type { OutboundClient } from '../infra/outbound/outbound-client.js';
import { CommandInterrupted } from '../infra/audio/run-command.js';
import type { OnJobDone } from '../core/jobs/job-done-payload.js';
import type { JobOptions } from '../core/jobs/job-options.js';
import { createLaneEngines, type LaneConfigs } from './transcription-engines.js';
import { classifyFailure } from './transcription-errors.js';
import { keepResult } from './keep-result.js';
import { loopFailures } from '../infra/db/loop-failures.js';
import { defaultPipelineOptions, type PipelineDeps, type PipelineOptions, type PipelineTimings, runPipeline } from './transcription-pipeline.js';
import { checkTranscriptionTools } from './transcription-preflight.js';
import { SlotPool } from './transcription-slots.js';

export interface TranscriptionWorkerOptions extends PipelineOptions {
  /** Longest wait between claim attempts while idle (retries come due, leases run out), in ms. Default: 2000. */
  pollMs: number;
  /** Interval of the pool's announcement, for the ETA's slot count, in ms. Default: 5000. */
  announceMs: number;
}

/** Overrides of the job service and its workers, for tests and the bench (`BootOverrides.jobs`). */
export interface JobOverrides {
  options?: Partial<JobOptions>;
  onJobDone?: OnJobDone;
  workers?: Partial<TranscriptionWorkerOptions>;
  onTaskTimings?: TranscriptionWorkerDeps['onTaskTimings'];
  onChunkTimings?: TranscriptionWorkerDeps['onChunkTimings'];
}

export const defaultWorkerOptions: TranscriptionWorkerOptions = { ...defaultPipelineOptions, pollMs: 2000, announceMs: 5000 };

export interface TranscriptionWorkerDeps {
  jobs: JobService;
  bus: EventBus;
  log: Logger;
  /** Slots: tasks (or chunks of one task) run at once in this process. */
  workers: number;
  /** Scratch audio goes under `<dataDir>/scratch/`. */
  dataDir: string;
  lanes: LaneConfigs;
  /** The guarded client (audio downloads, the OpenAI engine's requests). */
  outbound: OutboundClient;
  options?: Partial<TranscriptionWorkerOptions>;
  /** Called after each stored task with where its time went (the bench reads it). */
  onTaskTimings?: (task: ClaimedTask, timings: PipelineTimings) => void;
  /** Fingerprints each downloaded file as its transcript's reference audio (see `PipelineDeps.keepReference`). */
  keepReference?: PipelineDeps['keepReference'];
  /** Called after each stored chunk with its engine time; `settled` on the episode's last one (the bench reads it). */
  onChunkTimings?: (chunk: ClaimedChunk, timings: { engineSeconds: number; settled: boolean }) => void;
}

/**
 * Runs `workers` transcription slots in this process until `signal` aborts,
 * then aborts running tasks and hands them back (nothing stays leased).
 * Tasks are claimed from the shared queue (any number of processes on one
 * PostgreSQL); a new request anywhere wakes the claim loop through the bus.
 */
export async function runTranscriptionWorkers(deps: TranscriptionWorkerDeps, signal: AbortSignal): Promise<void> {
  const options = { ...defaultWorkerOptions, ...deps.options };
  const { jobs, log } = deps;
  const { outbound } = deps;
  const engines = createLaneEngines(deps.lanes, outbound, { fastTimeoutMs: options.fastChunkTimeoutMs });
  const preflight = await checkTranscriptionTools(engines);
  if (!preflight.ok) {
    log.error({ problems: preflight.problems }, `Transcription workers not started: ${preflight.problems.join('; ')}. Install what is missing and restart; the API keeps serving and requests stay queued.`);
    return;
  }
  if (deps.lanes.fast && !preflight.fastOk) log.warn(`${preflight.fastProblem}: fast-lane episodes run on the standard engine and their premium is refunded.`);
  let fastChecked = { at: Date.now(), ok: preflight.fastOk };
  const fastAvailable = async () => {
    if (Date.now() - fastChecked.at > 60_000) fastChecked = { at: Date.now(), ok: (await engines.fast.available()).ok };
    return fastChecked.ok;
  };

  const poolId = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const scratch = join(deps.dataDir, 'scratch', poolId.replace(/[^A-Za-z0-9.-]/g, '_'));
  await removeStaleScratch(join(deps.dataDir, 'scratch'));
  const pool = new SlotPool(Math.max(1, deps.workers));
  const running = new Set<Promise<void>>();
  let wakeClaim: (() => void) | null = null;
  const unsubscribe = deps.bus.subscribe((e) => {
    if (e.type === 'job.updated' && e.status === 'queued') {
      pool.queueEmpty = false;
      wakeClaim?.();
    }
  });
  const onAbort = () => {
    wakeClaim?.();
    pool.notify();
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const announceFailed = loopFailures(log, 'worker pool announcement failed');
  const announce = () => jobs.tasks.announce(poolId, pool.capacity).catch(announceFailed);
  await announce();
  const announcer = setInterval(announce, options.announceMs);
  log.info({ poolId, slots: pool.capacity, standard: engines.standard.name, fast: deps.lanes.fast ? engines.fast.name : 'none' }, `transcription workers started: ${pool.capacity} slot(s)`);

  async function runTask(task: ClaimedTask, slotSince: number): Promise<void> {
    const tlog = log.child({ taskId: task.id, attempt: task.attempt, transcriptId: task.transcriptId });
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('worker stopping'));
    signal.addEventListener('abort', stop, { once: true });
    let lost = false;
    let state = { stage: 'claimed', progress: 0, audioSeconds: undefined as number | undefined };
    let beating = Promise.resolve();
    // Heartbeats run one after another; a lost lease stops the task at once.
    const beat = () => {
      beating = beating.then(async () => {
        if (lost) return;
        const ok = await jobs.tasks.heartbeat(task, state).catch(() => true);
        if (!ok) {
          lost = true;
          controller.abort(new Error('lease lost'));
        }
      });
      return beating;
    };
    const timer = setInterval(beat, Math.max(200, (task.leaseSeconds * 1000) / 3));
    const keep = { withinMs: task.leaseSeconds * 1000, signal, log: tlog };
    try {
      if (task.failures >= task.maxAttempts) {
        await jobs.tasks.fail(task, { message: `gave up after ${task.failures} attempts (workers stopped mid-task)`, permanent: true });
        return;
      }
      const out = await runPipeline(
        task,
        join(scratch, `${task.id}-${task.attempt}`),
        { outbound, engines, fastAvailable, lender: pool, options, log: tlog, slotSince, handOff: (chunks, f) => keepResult(() => jobs.tasks.splitIntoChunks(task, chunks, f), keep), vocabulary: () => jobs.tasks.vocabulary(task.transcriptId), keepReference: deps.keepReference },
        async (stage, progress, audioSeconds) => {
          const moved = stage !== state.stage;
          state = { stage, progress, audioSeconds: audioSeconds ?? state.audioSeconds };
          if (moved) await beat();
          if (lost) throw new Error('lease lost');
        },
        controller.signal,
      );
      if ('handedOff' in out) {
        // The task is its chunks' now: its lease is gone, so the heartbeat's refusal is expected.
        lost = true;
        await beating;
        if (!out.handedOff) tlog.warn('split rejected: the lease had run out or the task was claimed again');
        return;
      }
      await beating;
      if (lost) return;
      const outcome = await keepResult(() => jobs.tasks.complete(task, out.result, out.engineName), keep);
      if (outcome === 'stale') tlog.warn('late result rejected: the lease had run out or the task was claimed again');
      else deps.onTaskTimings?.(task, out.timings);
    } catch (err) {
      if (lost) {
        tlog.warn('lease lost; the task was left to another worker');
      } else if (signal.aborted || err instanceof CommandInterrupted) {
        // A stop signal sent to the whole process group can end ffmpeg or the
        // recogniser before this process's own handler runs: a hand-back too.
        await jobs.tasks.release(task).catch((e) => tlog.warn({ err: e }, 'release failed; the lease will run out'));
      } else {
        const nameUrl = await jobs.tasks.audioIsPublic(task.transcriptId).catch(() => false);
        const failure = classifyFailure(err, { nameUrl });
        const outcome = await jobs.tasks.fail(task, failure).catch((e) => {
          tlog.error({ err: e }, 'could not record a failed attempt');
          return 'error';
        });
        tlog.warn({ reason: failure.message, outcome }, 'transcription attempt failed');
      }
    } finally {
      clearInterval(timer);
      signal.removeEventListener('abort', stop);
    }
  }

  async function runChunk(chunk: ClaimedChunk, slotSince: number): Promise<void> {
    const clog = log.child({ taskId: chunk.taskId, chunk: chunk.index, attempt: chunk.attempt });
    const controller = new AbortController();
    const stop = () => controller.abort(new Error('worker stopping'));
    signal.addEventListener('abort', stop, { once: true });
    let lost = false;
    const timer = setInterval(() => {
      void jobs.tasks
        .heartbeatChunk(chunk)
        .catch(() => true)
        .then((ok) => {
          if (!ok && !lost) {
            lost = true;
            controller.abort(new Error('lease lost'));
          }
        });
    }, Math.max(200, (chunk.leaseSeconds * 1000) / 3));
    const file = join(scratch, `chunk-${chunk.taskId}-${chunk.index}-${chunk.attempt}.wav`);
    try {
      if (chunk.failures >= chunk.maxAttempts) {
        await jobs.tasks.failChunk(chunk, { message: `gave up after ${chunk.failures} attempts (workers stopped mid-chunk)`, permanent: true });
        return;
      }
      await mkdir(scratch, { recursive: true });
      await writeFile(file, chunk.audio);
      const began = performance.now();
      const result = await engines[chunk.lane].transcribe(file, { signal: controller.signal, vocabulary: chunk.vocabulary });
      const engineSeconds = (performance.now() - began) / 1000;
      if (lost) return;
      // The lane's throughput counts the whole time the slot was held (claim, scratch file, engine), not the engine's alone.
      const outcome = await keepResult(() => jobs.tasks.completeChunk(chunk, result, (performance.now() - slotSince) / 1000, engines), { withinMs: chunk.leaseSeconds * 1000, signal, log: clog });
      if (outcome === 'stale') clog.warn('late chunk rejected: the lease had run out or the chunk was claimed again');
      else deps.onChunkTimings?.(chunk, { engineSeconds, settled: outcome === 'settled' });
    } catch (err) {
      if (lost) {
        clog.warn('chunk lease lost; left to another worker');
      } else if (signal.aborted || err instanceof CommandInterrupted) {
        await jobs.tasks.releaseChunk(chunk).catch((e) => clog.warn({ err: e }, 'chunk release failed; the lease will run out'));
      } else {
        const failure = classifyFailure(err);
        const outcome = await jobs.tasks.failChunk(chunk, failure).catch((e) => {
          clog.error({ err: e }, 'could not record a failed chunk attempt');
          return 'error';
        });
        clog.warn({ reason: failure.message, outcome }, 'chunk attempt failed');
      }
    } finally {
      clearInterval(timer);
      signal.removeEventListener('abort', stop);
      await rm(file, { force: true });
    }
  }

  const idle = () =>
    new Promise<void>((resolve) => {
      const t = setTimeout(done, options.pollMs);
      function done() {
        clearTimeout(t);
        wakeClaim = null;
        resolve();
      }
      wakeClaim = done;
    });

  const claimFailed = loopFailures(log, 'claiming transcription work failed');
  try {
    while (!signal.aborted) {
      if (pool.free() <= 0) {
        await pool.changed();
        continue;
      }
      pool.reserve();
      const slotSince = performance.now();
      let work: Awaited<ReturnType<typeof jobs.tasks.claimWork>> = null;
      try {
        work = await jobs.tasks.claimWork(poolId);
      } catch (err) {
        claimFailed(err);
      } finally {
        pool.unreserve();
      }
      if (signal.aborted) {
        if (work && 'task' in work) await jobs.tasks.release(work.task).catch(() => undefined);
        if (work && 'chunk' in work) await jobs.tasks.releaseChunk(work.chunk).catch(() => undefined);
        break;
      }
      if (!work) {
        pool.queueEmpty = true;
        pool.notify();
        await idle();
        continue;
      }
      pool.queueEmpty = false;
      pool.take();
      const run: Promise<void> = ('task' in work ? runTask(work.task, slotSince) : runChunk(work.chunk, slotSince)).finally(() => {
        running.delete(run);
        pool.finish();
      });
      running.add(run);
    }
  } finally {
    clearInterval(announcer);
    unsubscribe();
    signal.removeEventListener('abort', onAbort);
    await Promise.allSettled([...running]);
    await jobs.tasks.retire(poolId).catch(() => undefined);
    await rm(scratch, { recursive: true, force: true });
    log.info({ poolId }, 'transcription workers stopped');
  }
}

/** Scratch left by pools that died a day ago or more (a killed process cannot clean up after itself). */
async function removeStaleScratch(dir: string): Promise<void> {
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info && info.mtimeMs < dayAgo) await rm(path, { recursive: true, force: true });
  }
}
