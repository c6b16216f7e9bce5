import { describe, expect, it } from 'vitest';
import { drainSeconds, estimateSeconds, jobSeconds, NO_WORK, pollAfterSeconds, promiseSeconds, type QueuedWork, retryFloorSeconds, scheduleSeconds } from './eta.js';

const cost = (rate: number, fixed = 0) => ({ rate, fixed });
const work = (standard: number, fast = 0, tasks: Partial<Record<'standard' | 'fast', number>> = {}): QueuedWork => ({
  standard: { audio: standard, tasks: tasks.standard ?? 0 },
  fast: { audio: fast, tasks: tasks.fast ?? 0 },
});
const last = (lane: 'standard' | 'fast', audio: number, remaining = audio) => ({ lane, remaining, audioSeconds: audio });

describe('ETA arithmetic', () => {
  it('a task waiting out its backoff is done no sooner than the wait plus its own run, whatever the queue says', () => {
    const rates = { standard: cost(2.5), fast: cost(20) };
    const retry = { waitSeconds: 600, task: last('standard', 60) };
    expect(retryFloorSeconds(retry, rates, 1)).toBe(624);
    // Two chunks on two slots.
    expect(retryFloorSeconds(retry, rates, 2)).toBe(612);
    expect(retryFloorSeconds(undefined, rates, 2)).toBe(0);
    expect(estimateSeconds({ before: work(0), last: last('standard', 60), retry }, rates, 1)).toBe(624);
    // Work ahead that outlasts the wait still decides.
    expect(estimateSeconds({ before: work(10_000), last: last('standard', 60), retry }, rates, 1)).toBe(4024);
  });

  it('divides remaining audio by lane rate and slots', () => {
    const rates = { standard: cost(3), fast: cost(20) };
    expect(drainSeconds(work(600), rates, 2)).toBe(100);
    expect(drainSeconds(work(300, 400), rates, 1)).toBe(120);
    expect(drainSeconds(work(30), { standard: cost(3), fast: cost(3) }, 0)).toBe(10);
  });

  it('each task still to do adds the lane\'s fixed cost, by the share of it left, spread over the slots', () => {
    const rates = { standard: cost(3, 8), fast: cost(20) };
    // 600 s of audio in 5 tasks not begun: 200 + 40 slot-seconds over 2 slots.
    expect(drainSeconds(work(600, 0, { standard: 5 }), rates, 2)).toBe(120);
    // A job's own last task: all of it at first, a quarter with a quarter left.
    expect(jobSeconds(NO_WORK, last('standard', 12), rates, 2)).toBe(12);
    expect(jobSeconds(NO_WORK, last('standard', 12, 3), rates, 2)).toBe(3);
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

  describe('scheduled task by task', () => {
    const task = (audio: number, mine = false, remaining = audio) => ({ remaining, audioSeconds: audio, mine });
    const std = cost(2, 5);

    it('a task with a slot idle for it starts at once, whatever runs on the other', () => {
      // Two slots: the 15 s episode ahead takes one, the 40 s one starts on the other at once.
      expect(scheduleSeconds([task(15), task(40, true)], std, 2)).toBe(25);
      // One slot: it waits for the first.
      expect(scheduleSeconds([task(15), task(40, true)], std, 1)).toBe(Math.ceil(12.5 + 25));
    });

    it('a long episode\'s chunks spread over the slots after its split; a short one holds one slot', () => {
      // 120 s = 4 chunks of 15 slot-seconds after a 5 s split, over 2 slots.
      expect(scheduleSeconds([task(120, true)], std, 2)).toBe(5 + 30);
      expect(scheduleSeconds([task(40, true)], std, 4)).toBe(25);
    });

    it('a task half done pays half its split; the job is done when its slowest episode is', () => {
      expect(scheduleSeconds([task(40, false, 20), task(20, true)], std, 1)).toBe(Math.ceil(2.5 + 10 + 15));
      expect(scheduleSeconds([task(90, true), task(15, true)], std, 2)).toBe(Math.ceil(Math.max(5 + 15 + 15, 5 + 12.5, 5 + 15 + 15)));
    });

    it('a running last task is never promised sooner than its own pace allows', () => {
      const rates = { standard: std, fast: cost(20) };
      // 146 s on an endpoint assumed 20 × real time: about 8 s, however long it has already run.
      const quick = estimateSeconds({ before: work(0), last: last('fast', 146) }, rates, 1, 1);
      expect(quick).toBeLessThan(10);
      // Running 100 s with nothing done: at most half done, so at least as long again, twice over.
      expect(estimateSeconds({ before: work(0), last: { ...last('fast', 146), runningSeconds: 100 } }, rates, 1, 1)).toBe(200);
      // A fifth done in 100 s: taken as half done, so 160 s more.
      expect(estimateSeconds({ before: work(0), last: { ...last('fast', 150, 120), runningSeconds: 100 } }, rates, 1, 1)).toBe(160);
      // Three quarters done in 300 s: 100 s more at that pace.
      expect(estimateSeconds({ before: work(0), last: { ...last('fast', 200, 50), runningSeconds: 300 } }, rates, 1, 1)).toBe(100);
      // Just claimed, or a model that already expects longer: the model stands.
      expect(estimateSeconds({ before: work(0), last: { ...last('fast', 146), runningSeconds: 0 } }, rates, 1, 1)).toBe(quick);
      expect(estimateSeconds({ before: work(0), last: { ...last('standard', 3600), runningSeconds: 10 } }, { standard: cost(2.5), fast: cost(20) }, 1)).toBe(1440);
    });

    it('work too far ahead to detail drains first over every slot', () => {
      const queue = { before: work(0), last: last('standard', 40), schedule: { bulk: { audio: 400, tasks: 2 }, tasks: [task(40, true)] } };
      expect(estimateSeconds(queue, { standard: std, fast: cost(20) }, 2)).toBe((200 + 10) / 2 + 25);
      // Without a schedule (the fast lane), the drain formula.
      expect(estimateSeconds({ before: work(0, 3600), last: last('fast', 60) }, { standard: std, fast: cost(2) }, 1, 16)).toBe(jobSeconds(work(0, 3600), last('fast', 60), { standard: std, fast: cost(2) }, 1, 16));
    });
  });
});
