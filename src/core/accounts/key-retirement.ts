import type { EventBus } from '../../infra/events/event-bus.js';
import { ABORTED, unlessAborted } from '../../infra/unless-aborted.js';
import type { Actor } from './actor.js';

const NEVER = new AbortController().signal;

/**
 * Signals that fire when an account's key is retired (rotation retires every
 * key of the account, on any process), so that streams opened with it (GraphQL
 * subscriptions over SSE or graphql-ws, the website's live job rows) end at
 * once instead of streaming on.
 */
export function createKeyRetirement(bus: EventBus) {
  const live = new Map<string, Set<AbortController>>();
  const unsubscribe = bus.subscribe((e) => {
    if (e.type !== 'key.revoked') return;
    const set = live.get(e.accountId);
    if (!set) return;
    live.delete(e.accountId);
    for (const c of set) c.abort();
  });
  return {
    /**
     * A signal for `actor`'s key, watched from now on: call `release` when the
     * work it guards ends, or hand it a stream with `guard`, which ends the
     * stream when the key is retired and releases the watch when the stream ends.
     */
    watch(actor: Actor | null): RetirementWatch {
      if (!actor) return { signal: NEVER, release() {}, guard: (source) => endOnAbort(source, NEVER, () => {}) };
      const controller = new AbortController();
      const set = live.get(actor.accountId) ?? new Set();
      set.add(controller);
      live.set(actor.accountId, set);
      const release = () => {
        set.delete(controller);
        if (set.size === 0 && live.get(actor.accountId) === set) live.delete(actor.accountId);
      };
      return { signal: controller.signal, release, guard: (source) => endOnAbort(source, controller.signal, release) };
    },
    /** Streams and sockets watched now, over every account. */
    watching: () => [...live.values()].reduce((n, set) => n + set.size, 0),
    close: unsubscribe,
  };
}

export interface RetirementWatch {
  signal: AbortSignal;
  release(): void;
  guard<T>(source: AsyncIterable<T>): AsyncIterableIterator<T>;
}

export type KeyRetirement = ReturnType<typeof createKeyRetirement>;

/**
 * `source`, ending as soon as `signal` aborts, even while it waits for its
 * next item (a pending `next()` of an async generator would hold `return()`).
 */
function endOnAbort<T>(source: AsyncIterable<T>, signal: AbortSignal, onEnd: () => void): AsyncIterableIterator<T> {
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
        // A stream that fails has ended too: its watch is released.
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
