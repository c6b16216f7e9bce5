import { performance } from 'node:perf_hooks';
import type { Chunk } from '../infra/audio/wav-file.js';
import type { AsrResult } from '../infra/asr/asr-engine.js';

/** Idle worker slots a running task may borrow for one chunk at a time. */
export interface SlotLender {
  /** Takes an idle slot when one is free and no queued task needs it. */
  tryBorrow(): boolean;
  giveBack(): void;
  /** Resolves the next time a slot is freed or work appears. */
  changed(): Promise<void>;
}

export interface ChunkRunOptions {
  lender: SlotLender;
  signal: AbortSignal;
  /** Called as each chunk finishes: how many are done. */
  onProgress?: (done: number, total: number) => void;
}

/**
 * Transcribes chunks on the task's own slot and on any slots the pool can
 * lend, one chunk per slot at a time: a long episode with idle workers around
 * finishes sooner, and a lent slot goes back after each chunk, so a task that
 * arrives meanwhile waits for one chunk at most. The first failure stops the
 * rest and is thrown.
 * @returns results in chunk order, and the seconds of borrowed slot time.
 */
export async function transcribeChunks(
  chunks: readonly Chunk[],
  transcribeOne: (chunk: Chunk, signal: AbortSignal) => Promise<AsrResult>,
  opts: ChunkRunOptions,
): Promise<{ results: AsrResult[]; borrowedSeconds: number }> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(opts.signal.reason);
  if (opts.signal.aborted) onAbort();
  else opts.signal.addEventListener('abort', onAbort, { once: true });
  const results: AsrResult[] = new Array(chunks.length);
  const inflight = new Set<Promise<void>>();
  let next = 0;
  let finished = 0;
  let ownBusy = false;
  let borrowedMs = 0;
  let failure: unknown = null;

  const start = (borrowed: boolean) => {
    const i = next++;
    const began = performance.now();
    const run: Promise<void> = transcribeOne(chunks[i]!, controller.signal)
      .then(
        (r) => {
          results[i] = r;
          finished += 1;
          opts.onProgress?.(finished, chunks.length);
        },
        (err) => {
          failure ??= err;
          controller.abort(err);
        },
      )
      .finally(() => {
        inflight.delete(run);
        if (borrowed) {
          borrowedMs += performance.now() - began;
          opts.lender.giveBack();
        } else {
          ownBusy = false;
        }
      });
    inflight.add(run);
  };

  try {
    while (failure === null && !controller.signal.aborted) {
      while (next < chunks.length) {
        if (!ownBusy) {
          ownBusy = true;
          start(false);
        } else if (opts.lender.tryBorrow()) {
          start(true);
        } else break;
      }
      if (inflight.size === 0) break;
      await Promise.race([...inflight, opts.lender.changed()]);
    }
    await Promise.allSettled([...inflight]);
  } finally {
    opts.signal.removeEventListener('abort', onAbort);
  }
  if (failure !== null) throw failure;
  if (opts.signal.aborted) throw opts.signal.reason ?? new Error('aborted');
  return { results, borrowedSeconds: borrowedMs / 1000 };
}
