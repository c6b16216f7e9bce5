import { setMaxListeners } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Chunk } from '../infra/audio/wav-file.js';
import { AsrError, type AsrResult } from '../infra/asr/asr-engine.js';

export interface FanOutOptions {
  /** Chunks in flight at once (FAST_ASR_CONCURRENCY). */
  concurrency: number;
  /** Tries per chunk before the episode gives up on the endpoint. */
  attempts: number;
  /** Pause before retry n of a chunk is this times 2^(n-1), in ms. */
  retryDelayMs: number;
  signal: AbortSignal;
  onProgress?: (done: number, total: number) => void;
}

/**
 * Sends an episode's chunks to a remote engine (a GPU behind an
 * OpenAI-compatible endpoint) `concurrency` at a time, independent of the
 * worker's CPU slots: the remote server is the parallelism. A chunk that
 * fails with a passing fault (timeout, 429, 5xx, connection refused) is tried
 * again; one that fails for good stops the rest and is thrown, so the caller
 * can fall back to the standard lane.
 * @returns results in chunk order.
 */
export async function fanOutChunks(
  chunks: readonly Chunk[],
  transcribeOne: (chunk: Chunk, signal: AbortSignal) => Promise<AsrResult>,
  opts: FanOutOptions,
): Promise<AsrResult[]> {
  const controller = new AbortController();
  // Every request in flight listens on it: FAST_ASR_CONCURRENCY may well exceed Node's default of 10.
  setMaxListeners(Math.max(10, opts.concurrency * 4), controller.signal);
  const onAbort = () => controller.abort(opts.signal.reason);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  const results: AsrResult[] = new Array(chunks.length);
  let next = 0;
  let finished = 0;
  let failure: unknown = null;

  const one = async (chunk: Chunk): Promise<AsrResult> => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await transcribeOne(chunk, controller.signal);
      } catch (err) {
        const passing = err instanceof AsrError && err.retryable;
        if (!passing || attempt >= opts.attempts || controller.signal.aborted) throw err;
        await sleep(opts.retryDelayMs * 2 ** (attempt - 1), undefined, { signal: controller.signal }).catch(() => undefined);
      }
    }
  };

  const lane = async () => {
    while (failure === null && !controller.signal.aborted && next < chunks.length) {
      const i = next++;
      try {
        results[i] = await one(chunks[i]!);
        finished += 1;
        opts.onProgress?.(finished, chunks.length);
      } catch (err) {
        failure ??= err;
        controller.abort(err);
      }
    }
  };

  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(opts.concurrency, chunks.length)) }, lane));
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
  }
  if (failure !== null) throw failure;
  if (opts.signal.aborted) throw opts.signal.reason ?? new Error('aborted');
  return results;
}
