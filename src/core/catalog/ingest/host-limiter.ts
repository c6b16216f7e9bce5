import { DomainError } from '../../errors.js';

export interface HostTaskOptions {
  /** Someone is waiting for it (a search, a first episode list): it goes ahead of background reads. */
  urgent?: boolean;
  /** Longest wait for a free slot, in ms; past it the task is not run and `host_busy` is thrown. */
  maxWaitMs?: number;
}

/** Runs tasks with at most `perHost` at a time for any one key (a host). */
export interface HostLimiter {
  run<T>(host: string, task: () => Promise<T>, options?: HostTaskOptions): Promise<T>;
}

type Waiter = { urgent: boolean; start(): void };

/**
 * A task that waited its `maxWaitMs` for the host and was not run: neither the
 * host's fault nor the feed's, but Podtext's own queue, so `unavailable` (503,
 * Retry-After): a client should try again, not give up on the query.
 */
export class HostBusyError extends DomainError {
  constructor(host: string) {
    super('unavailable', `the server at ${host} is busy with other reads; try again in a minute`, { retryAfter: 60 });
  }
}

/**
 * A per-host concurrency limit, so a refresh of many shows on one hosting
 * service never opens more than `perHost` connections to it at once.
 * Waiting tasks start in arrival order, urgent ones before the rest; one
 * that may wait only so long leaves the queue when its time is up.
 *
 * @param perHost tasks running at once per host. Default: 2.
 */
export function createHostLimiter(perHost = 2): HostLimiter {
  const running = new Map<string, number>();
  const waiting = new Map<string, Waiter[]>();

  function release(host: string): void {
    const next = waiting.get(host)?.shift();
    if (next) {
      next.start();
      return;
    }
    waiting.delete(host);
    const left = (running.get(host) ?? 1) - 1;
    if (left > 0) running.set(host, left);
    else running.delete(host);
  }

  function queue(host: string, options: HostTaskOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const list = waiting.get(host) ?? [];
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = {
        urgent: options.urgent === true,
        start() {
          clearTimeout(timer);
          resolve();
        },
      };
      // Urgent tasks queue behind urgent ones only.
      const at = waiter.urgent ? list.findIndex((w) => !w.urgent) : -1;
      list.splice(at < 0 ? list.length : at, 0, waiter);
      waiting.set(host, list);
      if (options.maxWaitMs !== undefined) {
        timer = setTimeout(() => {
          const now = waiting.get(host) ?? [];
          now.splice(now.indexOf(waiter), 1);
          reject(new HostBusyError(host));
        }, options.maxWaitMs);
      }
    });
  }

  return {
    async run(host, task, options = {}) {
      const active = running.get(host) ?? 0;
      if (active < perHost) running.set(host, active + 1);
      // A released slot passes straight to the next waiter, so the count stays right.
      else await queue(host, options);
      try {
        return await task();
      } finally {
        release(host);
      }
    },
  };
}

/** The limiter key of a URL: its host (with port), lower case; the raw string when it is no URL. */
export function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Maps `items` through `fn` with at most `concurrency` calls in flight,
 * returning results in input order.
 */
export async function mapWithConcurrency<T, R>(items: readonly T[], concurrency: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}
