import { Worker } from 'node:worker_threads';
import { workerModule } from '../../../infra/threads/worker-module.js';
import type { BatchMessage, BatchRequest } from './podcastindex-batches-worker.js';
import { podcastIndexBatches, type PodcastIndexReadOptions, type EncodedShowBatch } from './podcastindex-batches.js';

/** Batches the worker reads ahead of the one being written. */
const READ_AHEAD = 2;

async function* fromWorker(module: URL, options: PodcastIndexReadOptions, now: () => Date): AsyncGenerator<EncodedShowBatch> {
  const worker = new Worker(module, { workerData: { options, now: now().getTime() } });
  const inbox: BatchMessage[] = [];
  let wake: () => void = () => undefined;
  let failure: Error | null = null;
  let exited = false;
  const exit = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  worker.on('message', (message: BatchMessage) => {
    inbox.push(message);
    wake();
  });
  worker.on('error', (err) => {
    failure = err;
    wake();
  });
  worker.once('exit', () => {
    exited = true;
    wake();
  });
  const request = (stop = false) => worker.postMessage({ stop, now: now().getTime() } satisfies BatchRequest);
  let finished = false;
  try {
    for (let i = 0; i < READ_AHEAD; i++) request();
    for (;;) {
      while (inbox.length === 0 && !failure && !exited) await new Promise<void>((resolve) => (wake = resolve));
      const message = inbox.shift();
      if (!message) throw failure ?? new Error('the Podcast Index reader stopped unexpectedly');
      if ('error' in message) throw new Error(message.error);
      if ('done' in message) break;
      request();
      yield message.batch;
    }
    finished = true;
  } finally {
    if (!finished && !exited) request(true);
    await exit;
  }
}

/**
 * {@link podcastIndexBatches} on a worker thread, so reading, parsing and
 * encoding overlap with writing: PGlite runs on the main thread and keeps
 * it busy while it writes. Reads at most a few batches ahead. On this
 * thread when no worker module is at hand (a bundle built without it).
 */
export function podcastIndexBatchesInWorker(options: PodcastIndexReadOptions, now: () => Date): AsyncGenerator<EncodedShowBatch> {
  const module = workerModule(import.meta.url, 'podcastindex-batches-worker');
  if (!module) return podcastIndexBatches(options, now);
  return fromWorker(module, options, now);
}
