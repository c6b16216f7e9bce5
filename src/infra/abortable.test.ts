import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { Actor } from '../core/accounts/actor.js';
import { createKeyRetirement } from '../core/accounts/key-retirement.js';
import { createLocalEventBus } from './events/event-bus.js';
import { ABORTED, endOnAbort, unlessAborted } from './abortable.js';

async function* counting(n: number) {
  for (let i = 0; i < n; i++) yield i;
}

describe('waiting on work that a long-lived signal may cut short', () => {
  it('keeps nothing per call on the signal: after 10,000 calls it holds no listener', async () => {
    const signal = new AbortController().signal;
    let sum = 0;
    for (let i = 0; i < 10_000; i++) {
      const r = await unlessAborted(Promise.resolve(i), signal);
      if (r !== ABORTED) sum += r;
    }
    expect(sum).toBe((9_999 * 10_000) / 2);
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    await expect(unlessAborted(Promise.reject(new Error('failed')), signal)).rejects.toThrow('failed');
  });

  it('answers ABORTED at once when the signal aborts while the work is pending, or had already aborted', async () => {
    const stop = new AbortController();
    const pending = unlessAborted(new Promise<number>(() => undefined), stop.signal);
    stop.abort();
    expect(await pending).toBe(ABORTED);
    expect(await unlessAborted(Promise.resolve(1), stop.signal)).toBe(ABORTED);
  });
});

describe("a subscription's stream, ended by shutdown", () => {
  it('streams 20,000 events holding at most one listener on the shutdown signal, and none once it ends', async () => {
    const stop = new AbortController();
    let ended = 0;
    const stream = endOnAbort(counting(20_000), stop.signal, () => ended++);
    let n = 0;
    for await (const _ of stream) {
      if (++n % 5_000 === 0) expect(getEventListeners(stop.signal, 'abort').length).toBeLessThanOrEqual(1);
    }
    expect(n).toBe(20_000);
    expect(ended).toBe(1);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it('ends a stream waiting for its next event when shutdown begins', async () => {
    const stop = new AbortController();
    let ended = 0;
    async function* quiet() {
      yield 1;
      await new Promise(() => undefined);
    }
    const stream = endOnAbort(quiet(), stop.signal, () => ended++);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    const waiting = stream.next();
    stop.abort();
    expect(await waiting).toEqual({ done: true, value: undefined });
    expect(ended).toBe(1);
  });

  it('counts a stream that fails as ended, once, and passes its error on', async () => {
    const stop = new AbortController();
    let ended = 0;
    async function* failing() {
      yield 1;
      throw new Error('the job view could not be read');
    }
    const stream = endOnAbort(failing(), stop.signal, () => ended++);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    // A for-await consumer calls no return() after a failed next().
    await expect(stream.next()).rejects.toThrow('could not be read');
    expect(ended).toBe(1);
    expect(getEventListeners(stop.signal, 'abort')).toHaveLength(0);
  });

  it("releases a retired-key watch when the stream it guards fails", async () => {
    const retirement = createKeyRetirement(createLocalEventBus());
    async function* failing() {
      yield 1;
      throw new Error('lost');
    }
    const stream = retirement.watch({ accountId: 'acc-1' } as Actor).guard(failing());
    expect(retirement.watching()).toBe(1);
    expect(await stream.next()).toEqual({ done: false, value: 1 });
    await expect(stream.next()).rejects.toThrow('lost');
    expect(retirement.watching()).toBe(0);
  });
});
