import type { Actor } from '../core/accounts/actor.js';
import type { EventBus } from '../infra/events/event-bus.js';

const NEVER = new AbortController().signal;

/**
 * Signals that fire when an account's key is retired (rotation retires every
 * key of the account, on any process), so that subscriptions opened with it,
 * over SSE or graphql-ws, end at once instead of streaming on.
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
    /** A signal for `actor`'s key; call `release` when the work it guards ends. */
    watch(actor: Actor | null): { signal: AbortSignal; release(): void } {
      if (!actor) return { signal: NEVER, release() {} };
      const controller = new AbortController();
      const set = live.get(actor.accountId) ?? new Set();
      set.add(controller);
      live.set(actor.accountId, set);
      return {
        signal: controller.signal,
        release() {
          set.delete(controller);
          if (set.size === 0 && live.get(actor.accountId) === set) live.delete(actor.accountId);
        },
      };
    },
    close: unsubscribe,
  };
}

export type KeyRetirement = ReturnType<typeof createKeyRetirement>;
