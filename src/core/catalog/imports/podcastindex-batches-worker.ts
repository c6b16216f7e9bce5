// Worker thread entry: reads and encodes Podcast Index batches (see
// podcastindex-batches-thread.ts) while the main thread writes them.
import { parentPort, workerData } from 'node:worker_threads';
import { podcastIndexBatches, type PodcastIndexReadOptions, type EncodedShowBatch } from './podcastindex-batches.js';

/** From the main thread: room for one more batch, or stop; either way the main thread's clock. */
export interface BatchRequest {
  stop?: boolean;
  now: number;
}

/** To the main thread. */
export type BatchMessage = { batch: EncodedShowBatch } | { done: true } | { error: string };

const port = parentPort!;
const { options, now: startedAt } = workerData as { options: PodcastIndexReadOptions; now: number };
let now = new Date(startedAt);
let room = 0;
let stopped = false;
let wake: () => void = () => undefined;
port.on('message', (request: BatchRequest) => {
  now = new Date(request.now);
  if (request.stop) stopped = true;
  else room += 1;
  wake();
});

try {
  for await (const batch of podcastIndexBatches(options, () => now)) {
    while (room === 0 && !stopped) await new Promise<void>((resolve) => (wake = resolve));
    if (stopped) break;
    room -= 1;
    port.postMessage({ batch } satisfies BatchMessage, [batch.data.buffer as ArrayBuffer]);
  }
  if (!stopped) port.postMessage({ done: true } satisfies BatchMessage);
} catch (err) {
  port.postMessage({ error: (err as Error).message } satisfies BatchMessage);
} finally {
  port.close();
}
