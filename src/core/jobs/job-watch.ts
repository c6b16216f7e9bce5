import type { EventBus } from '../../infra/events/event-bus.js';
import type { JobView } from './job-view.js';

/** What a subscriber sees change: status, progress and each episode's state (not the moving ETA). */
function signature(v: JobView): string {
  return `${v.status}|${v.done}|${v.episodes.map((e) => e.status).join(',')}`;
}

export interface WatchOptions {
  bus: EventBus;
  accountId: string;
  /** Only events of this job; all of the account's jobs when unset. */
  jobId?: string;
  /** Reads a job as its owner sees it. */
  load(jobId: string): Promise<JobView | null>;
  /** Read after subscribing, so no change between the two is missed. */
  initial(): Promise<JobView[]>;
  /** End the stream once the watched job is done. */
  endWhenDone: boolean;
}

/**
 * Job states as an async iterator: first the current state, then every change
 * announced on the bus (`job.updated`, from any process), re-read from the
 * database so the subscriber sees committed facts. Events for one job that
 * arrive while it is being read are folded into one read. When the bus
 * listens again after losing its connection (`bus.reconnected`), the jobs are
 * read again: what another process announced in the gap never arrives. `return()` ends it
 * at once, even while it waits, and drops the bus subscription.
 */
export async function watchJobs(opts: WatchOptions): Promise<AsyncIterableIterator<JobView>> {
  const ready: JobView[] = [];
  const pending = new Set<string>();
  const last = new Map<string, string>();
  let wake: (() => void) | null = null;
  let closed = false;
  /** Set when the bus listens again after losing its connection: what was announced meanwhile never arrives. */
  let missed = false;
  const unsubscribe = opts.bus.subscribe((e) => {
    if (e.type === 'bus.reconnected') {
      missed = true;
      wake?.();
      return;
    }
    if (e.type !== 'job.updated' || e.accountId !== opts.accountId) return;
    if (opts.jobId && e.jobId !== opts.jobId) return;
    pending.add(e.jobId);
    wake?.();
  });
  const close = () => {
    closed = true;
    unsubscribe();
    wake?.();
  };
  try {
    for (const v of await opts.initial()) {
      last.set(v.id, signature(v));
      ready.push(v);
    }
  } catch (err) {
    close();
    throw err;
  }
  let endAfterNext = ready.some((v) => opts.endWhenDone && v.status === 'done');

  const iterator: AsyncIterableIterator<JobView> = {
    async next(): Promise<IteratorResult<JobView>> {
      for (;;) {
        if (ready.length > 0) {
          const value = ready.shift()!;
          return { value, done: false };
        }
        if (closed || endAfterNext) {
          if (!closed) close();
          return { value: undefined, done: true };
        }
        if (missed) {
          missed = false;
          // Every job shown that is not done yet is read again, and so are the account's jobs opened in the gap.
          for (const [id, sig] of last) if (!sig.startsWith('done|')) pending.add(id);
          if (!opts.jobId) for (const v of await opts.initial()) pending.add(v.id);
          continue;
        }
        const [jobId] = pending;
        if (jobId !== undefined) {
          pending.delete(jobId);
          const view = await opts.load(jobId);
          if (!view || closed) continue;
          const sig = signature(view);
          if (last.get(jobId) === sig) continue;
          last.set(jobId, sig);
          if (opts.endWhenDone && view.status === 'done') endAfterNext = true;
          return { value: view, done: false };
        }
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        wake = null;
      }
    },
    async return(): Promise<IteratorResult<JobView>> {
      close();
      ready.length = 0;
      return { value: undefined, done: true };
    },
    async throw(err?: unknown): Promise<IteratorResult<JobView>> {
      close();
      throw err;
    },
    [Symbol.asyncIterator]() {
      return iterator;
    },
  };
  return iterator;
}
