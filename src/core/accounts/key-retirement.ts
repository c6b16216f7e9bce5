import type { EventBus } from '../../infra/events/event-bus.js';
import { endOnAbort } from '../../infra/abortable.js';
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
