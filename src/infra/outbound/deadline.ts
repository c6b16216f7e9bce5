import { OutboundError } from './outbound-error.js';

/** One total time limit for a whole exchange, redirects and body included. */
export interface Deadline {
  signal: AbortSignal;
  dispose(): void;
}

/**
 * Aborts `signal` with an OutboundError: `timeout` after `timeoutMs`
 * milliseconds, or `aborted` as soon as the caller's `outer` signal fires.
 */
export function createDeadline(timeoutMs: number, url: string, outer?: AbortSignal): Deadline {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    controller.abort(new OutboundError('timeout', `no complete answer within ${timeoutMs} ms`, { url }));
  }, timeoutMs);
  const onOuter = (): void => {
    controller.abort(new OutboundError('aborted', 'the caller aborted the request', { url }, { cause: outer?.reason }));
  };
  if (outer?.aborted) onOuter();
  else outer?.addEventListener('abort', onOuter, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onOuter);
    },
  };
}
