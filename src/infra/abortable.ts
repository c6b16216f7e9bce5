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

/**
 * `source`, ending as soon as `signal` aborts, even while it waits for its
 * next item (a pending `next()` of an async generator would hold `return()`).
 * `onEnd` runs once however it ends: done, returned, failed or aborted.
 */
export function endOnAbort<T>(source: AsyncIterable<T>, signal: AbortSignal, onEnd: () => void): AsyncIterableIterator<T> {
  const it = source[Symbol.asyncIterator]();
  let finished = false;
  const finish = (value?: unknown): IteratorResult<T> => {
    if (!finished) {
      finished = true;
      onEnd();
      void it.return?.(value as never)?.catch(() => undefined);
    }
    return { done: true, value: value as never };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next() {
      if (finished || signal.aborted) return finish();
      let r: IteratorResult<T> | typeof ABORTED;
      try {
        r = await unlessAborted(it.next(), signal);
      } catch (err) {
        // A stream that fails has ended too (for-await consumers call no return() after a failed next).
        finish();
        throw err;
      }
      if (r === ABORTED) return finish();
      return r.done ? finish(r.value) : r;
    },
    async return(value?: unknown) {
      return finish(value);
    },
    async throw(err?: unknown) {
      finish();
      throw err;
    },
  };
}
