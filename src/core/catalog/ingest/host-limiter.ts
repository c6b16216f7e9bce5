/** Runs tasks with at most `perHost` at a time for any one key (a host). */
export interface HostLimiter {
  run<T>(host: string, task: () => Promise<T>): Promise<T>;
}

/**
 * A per-host concurrency limit, so a refresh of many shows on one hosting
 * service never opens more than `perHost` connections to it at once.
 * Waiting tasks start in arrival order.
 *
 * @param perHost tasks running at once per host. Default: 2.
 */
export function createHostLimiter(perHost = 2): HostLimiter {
  const running = new Map<string, number>();
  const waiting = new Map<string, (() => void)[]>();

  function release(host: string): void {
    const next = waiting.get(host)?.shift();
    if (next) {
      next();
      return;
    }
    waiting.delete(host);
    const left = (running.get(host) ?? 1) - 1;
    if (left > 0) running.set(host, left);
    else running.delete(host);
  }

  return {
    async run(host, task) {
      const active = running.get(host) ?? 0;
      if (active < perHost) running.set(host, active + 1);
      // A released slot passes straight to the next waiter, so the count stays right.
      else await new Promise<void>((resolve) => waiting.set(host, [...(waiting.get(host) ?? []), resolve]));
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
