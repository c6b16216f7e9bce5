import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { asrDoc } from '../core/jobs/asr-doc.js';
import type { Lane } from '../core/jobs/lanes.js';
import type { NewChunk } from '../core/jobs/chunk-queue.js';
import type { TaskResult } from '../core/jobs/settle-task.js';
import type { ClaimedTask, HandOff } from '../core/jobs/task-queue.js';
import type { ServedValidators } from '../core/transcripts/alignment/audio-check-service.js';
import type { Logger } from '../infra/logger.js';
import { AsrError } from '../infra/asr/asr-engine.js';
import { stitch } from '../infra/asr/transcribe-chunked.js';
import { decodeToPcm } from '../infra/audio/decode-to-pcm.js';
import { splitAtSilences } from '../infra/audio/split-at-silences.js';
import { type Chunk, extractChunk } from '../infra/audio/wav-file.js';
import type { OutboundClient } from '../infra/outbound/outbound-client.js';
import { type SlotLender, transcribeChunks } from './transcription-chunks.js';
import type { LaneEngines } from './transcription-engines.js';
import { fanOutChunks } from './transcription-fan-out.js';

/** Limits and sizes of the pipeline. Tests shorten them; defaults suit podcasts. */
export interface PipelineOptions {
  /** Largest audio file downloaded, in bytes. Default: 1 GiB. */
  maxDownloadBytes: number;
  /** Whole download, resumed retries included, in ms. Default: 1800000 (30 min). */
  downloadTimeoutMs: number;
  /** Longest silence of the audio host, in ms. Default: 30000. */
  downloadIdleTimeoutMs: number;
  /** Redirects followed, each checked again by the guard. Default: 5. */
  maxRedirects: number;
  /** Chunk length aimed at when splitting at silences, in seconds. Default: 30. */
  chunkSeconds: number;
  /** Longest chunk, in seconds. Default: 60. */
  maxChunkSeconds: number;
  /** Chunks of one fast-lane episode sent to the fast engine at once (FAST_ASR_CONCURRENCY). Default: 8. */
  fastConcurrency: number;
  /** Tries per chunk on the fast engine before the episode falls back to the standard lane. Default: 3. */
  fastChunkAttempts: number;
  /** Limit of one chunk's request to the fast engine, in ms. Default: 120000. */
  fastChunkTimeoutMs: number;
  /** Pause before the fast engine's retry n of a chunk is this times 2^(n-1), in ms. Default: 1000. */
  fastRetryDelayMs: number;
}

export const defaultPipelineOptions: PipelineOptions = {
  maxDownloadBytes: 1024 ** 3,
  downloadTimeoutMs: 30 * 60_000,
  downloadIdleTimeoutMs: 30_000,
  maxRedirects: 5,
  chunkSeconds: 30,
  maxChunkSeconds: 60,
  fastConcurrency: 8,
  fastChunkAttempts: 3,
  fastChunkTimeoutMs: 120_000,
  fastRetryDelayMs: 1000,
};

export interface PipelineDeps {
  outbound: OutboundClient;
  engines: LaneEngines;
  /** Whether the fast lane's engine can run now (checked at most once a minute). */
  fastAvailable(): Promise<boolean>;
  lender: SlotLender;
  /**
   * Queues the chunks as chunk tasks any worker may claim and lets go of the
   * task; false when the attempt is stale.
   */
  handOff(chunks: NewChunk[], f: HandOff): Promise<boolean>;
  /** The show's vocabulary for the task's episode (`TaskApi.vocabulary`), read once; none when absent or unreadable. */
  vocabulary?: () => Promise<string[]>;
  options: PipelineOptions;
  log: Logger;
  /**
   * When the slot began on this task (`performance.now()`, before its claim):
   * the slot time the lane's throughput is measured in counts from there.
   * Default: the pipeline's start.
   */
  slotSince?: number;
  /** Fingerprints the downloaded file as the reference its transcript's times follow (`AudioChecks.keepReference`). */
  keepReference?: (transcriptId: string, audioUrl: string, file: string, served: ServedValidators, signal: AbortSignal) => Promise<void>;
}

/** Where a running task is, for heartbeats: stage, share of chunks done, measured length. */
export type Report = (stage: string, progress: number, audioSeconds?: number) => Promise<void>;

/** What one task cost, for the bench: seconds spent in the engine and outside it. */
export interface PipelineTimings {
  engineSeconds: number;
  wallSeconds: number;
}

/**
 * One task from URL to transcript: download through the guarded client into
 * `workDir`, decode with ffmpeg (that local file only), split at silences,
 * recognise the chunks on this slot and any idle ones, stitch the words on
 * the episode's clock. A fast task whose engine is unavailable or fails runs
 * on the standard engine instead (`engineLane: 'standard'`: the premium is
 * refunded). `workDir` is removed at the end whatever happens.
 */
export async function runPipeline(
  task: ClaimedTask,
  workDir: string,
  deps: PipelineDeps,
  report: Report,
  signal: AbortSignal,
): Promise<{ result: TaskResult; engineName: string; timings: PipelineTimings } | { handedOff: boolean }> {
  const began = deps.slotSince ?? performance.now();
  await mkdir(workDir, { recursive: true });
  // Fingerprinting decodes the download a second time: it runs alongside the
  // decode and split (a core of its own, on an idle machine), not before them.
  const referenceStop = new AbortController();
  const stopReference = () => referenceStop.abort();
  signal.addEventListener('abort', stopReference, { once: true });
  let reference: Promise<void> = Promise.resolve();
  try {
    await report('download', 0);
    const audio = join(workDir, 'audio');
    const served = await deps.outbound.download(task.audioUrl, audio, {
      maxBytes: deps.options.maxDownloadBytes,
      timeoutMs: deps.options.downloadTimeoutMs,
      idleTimeoutMs: deps.options.downloadIdleTimeoutMs,
      maxRedirects: deps.options.maxRedirects,
      signal,
    });
    await report('decode', 0);
    const wav = join(workDir, 'audio.wav');
    reference = deps.keepReference?.(task.transcriptId, task.audioUrl, audio, served, referenceStop.signal) ?? reference;
    const { durationSeconds } = await decodeToPcm(audio, wav, { maxSeconds: task.maxSeconds, signal });
    await report('split', 0, durationSeconds);
    const chunks = await splitAtSilences(wav, { targetChunkSeconds: deps.options.chunkSeconds, maxChunkSeconds: deps.options.maxChunkSeconds, signal });
    // The reference is in place before any transcript of this file can be stored (it adopts it then).
    await reference;
    await rm(audio, { force: true });
    // Read once for all chunks: a split keeps it on the task. Without it names are missed, nothing fails.
    const vocabulary = deps.vocabulary
      ? await deps.vocabulary().catch((err: unknown) => {
          deps.log.warn({ err }, 'could not read the show vocabulary; recognising without it');
          return [];
        })
      : [];
    await report('recognise', 0);

    const hasFastLane = deps.engines.fast !== deps.engines.standard;
    let engineLane: Lane = task.lane === 'fast' && hasFastLane && (await deps.fastAvailable()) ? 'fast' : 'standard';
    let engineSeconds = 0;
    let borrowedSeconds = 0;
    const onProgress = (done: number, total: number) => void report('recognise', done / total).catch(() => undefined);
    const recognise = async (lane: Lane) => {
      const engine = deps.engines[lane];
      const t0 = performance.now();
      const transcribeOne = async (chunk: Chunk, chunkSignal: AbortSignal) => {
        const file = join(workDir, `chunk-${chunk.index}-${randomUUID().slice(0, 8)}.wav`);
        try {
          await extractChunk(wav, chunk, file);
          return await engine.transcribe(file, { signal: chunkSignal, vocabulary });
        } finally {
          await rm(file, { force: true });
        }
      };
      let results;
      if (lane === 'fast') {
        // The remote engine is the parallelism: its chunks go out FAST_ASR_CONCURRENCY at a time.
        const o = deps.options;
        results = await fanOutChunks(chunks, transcribeOne, { concurrency: o.fastConcurrency, attempts: o.fastChunkAttempts, retryDelayMs: o.fastRetryDelayMs, signal, onProgress });
      } else {
        const run = await transcribeChunks(chunks, transcribeOne, { lender: deps.lender, signal, onProgress });
        borrowedSeconds += run.borrowedSeconds;
        results = run.results;
      }
      engineSeconds += (performance.now() - t0) / 1000;
      return stitch(engine, chunks, results);
    };
    // Several chunks on the standard lane become chunk tasks: every worker process sharing the
    // database (any machine) takes some, and the last one to land stitches and settles.
    const handOff = async () => {
      const queued: NewChunk[] = [];
      for (const chunk of chunks) {
        const file = join(workDir, `chunk-${chunk.index}.wav`);
        await extractChunk(wav, chunk, file);
        queued.push({ ...chunk, audio: await readFile(file) });
        await rm(file, { force: true });
      }
      return { handedOff: await deps.handOff(queued, { engineLane: 'standard', audioSeconds: durationSeconds, splitSeconds: (performance.now() - began) / 1000, vocabulary }) };
    };
    let words;
    if (engineLane === 'standard' && chunks.length > 1) return await handOff();
    try {
      words = await recognise(engineLane);
    } catch (err) {
      if (engineLane !== 'fast' || signal.aborted || !(err instanceof AsrError)) throw err;
      deps.log.warn({ err: err.message }, 'fast-lane engine failed for good; falling back to the standard lane');
      engineLane = 'standard';
      await report('recognise', 0);
      if (chunks.length > 1) return await handOff();
      words = await recognise('standard');
    }
    await report('commit', 1);
    const wallSeconds = (performance.now() - began) / 1000;
    const language = words.language || null;
    return {
      engineName: deps.engines[engineLane].name,
      timings: { engineSeconds, wallSeconds },
      result: {
        doc: asrDoc(words.words, language, words.wordTimesEstimated),
        engine: words.engine,
        model: words.model,
        language,
        durationSeconds,
        engineLane,
        // The fast lane's rate is per concurrent request: the ETA spreads its episodes over as many.
        slotSeconds: engineLane === 'fast' ? wallSeconds * Math.max(1, Math.min(deps.options.fastConcurrency, chunks.length)) : wallSeconds + borrowedSeconds,
      },
    };
  } finally {
    signal.removeEventListener('abort', stopReference);
    referenceStop.abort();
    await reference;
    await rm(workDir, { recursive: true, force: true });
  }
}
