import { describe, expect, it } from 'vitest';
import { drainSeconds, jobSeconds, NO_WORK, pollAfterSeconds, promiseSeconds, type QueuedWork } from './eta.js';

const cost = (rate: number, fixed = 0) => ({ rate, fixed });
const work = (standard: number, fast = 0, tasks: Partial<Record<'standard' | 'fast', number>> = {}): QueuedWork => ({
  standard: { audio: standard, tasks: tasks.standard ?? 0 },
  fast: { audio: fast, tasks: tasks.fast ?? 0 },
});
const last = (lane: 'standard' | 'fast', audio: number, queued = true) => ({ lane, remaining: audio, audioSeconds: audio, queued });

describe('ETA arithmetic', () => {
  it('divides remaining audio by lane rate and slots', () => {
    const rates = { standard: cost(3), fast: cost(20) };
    expect(drainSeconds(work(600), rates, 2)).toBe(100);
    expect(drainSeconds(work(300, 400), rates, 1)).toBe(120);
    expect(drainSeconds(work(30), { standard: cost(3), fast: cost(3) }, 0)).toBe(10);
  });

  it('each task not yet started adds the lane\'s fixed cost, spread over the slots', () => {
    const rates = { standard: cost(3, 8), fast: cost(20) };
    // 600 s of audio in 5 unstarted tasks: 200 + 40 slot-seconds over 2 slots.
    expect(drainSeconds(work(600, 0, { standard: 5 }), rates, 2)).toBe(120);
    // A job's own last task pays it only while queued.
    expect(jobSeconds(NO_WORK, last('standard', 12), rates, 2)).toBe(12);
    expect(jobSeconds(NO_WORK, last('standard', 12, false), rates, 2)).toBe(4);
  });

  it('a job waits for the work before its last task, which spreads over at most its chunks', () => {
    const rates = { standard: cost(2), fast: cost(20) };
    expect(jobSeconds(NO_WORK, last('standard', 12), rates, 2)).toBe(6);
    expect(jobSeconds(work(40), last('standard', 12), rates, 2)).toBe(16);
    expect(jobSeconds(NO_WORK, last('standard', 600), rates, 2)).toBe(150);
    expect(jobSeconds(NO_WORK, null, rates, 2)).toBe(0);
  });

  it('a fast-lane episode spreads over the endpoint\'s concurrent requests, not the worker slots', () => {
    const rates = { standard: cost(2), fast: cost(2) };
    // Ten hours at 2× real time per request, 16 requests at once: about 19 minutes on one worker slot.
    expect(jobSeconds(NO_WORK, last('fast', 36_000), rates, 1, 16)).toBe(1125);
    expect(jobSeconds(work(0, 3600), last('fast', 60), rates, 1, 16)).toBe(Math.ceil(3600 / 2 / 16 + 60 / 2 / 2));
  });

  it('poll_after_seconds is a quarter of the remaining estimate within 30–300, null when done', () => {
    expect(pollAfterSeconds(0)).toBe(30);
    expect(pollAfterSeconds(400)).toBe(100);
    expect(pollAfterSeconds(10_000)).toBe(300);
    expect(pollAfterSeconds(null)).toBeNull();
  });

  it('the fast-lane promise is at least 300 s and grows with the estimate', () => {
    expect(promiseSeconds(10, { minSeconds: 300, factor: 2 })).toBe(300);
    expect(promiseSeconds(200, { minSeconds: 300, factor: 2 })).toBe(420);
    expect(promiseSeconds(1000, { minSeconds: 300, factor: 2 })).toBe(2040);
  });
});
