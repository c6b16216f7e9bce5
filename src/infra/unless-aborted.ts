export const ABORTED: unique symbol = Symbol('aborted');

/**
 * `work`'s result, or ABORTED as soon as `signal` aborts, whichever comes
 * first. The abort listener is removed when `work` settles: racing against one
 * promise that lives as long as the signal would keep a reaction per call,
 * which a subscription's stream (a call per event) gathers for its whole life.
 */
export function unlessAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise<T | typeof ABORTED>((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    const off = () => signal.removeEventListener('abort', onAbort);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        off();
        resolve(value);
      },
      (err: unknown) => {
        off();
        reject(err);
      },
    );
  });
}
