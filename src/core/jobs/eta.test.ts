import { describe, expect, it } from 'vitest';
import { drainSeconds, jobSeconds, pollAfterSeconds, promiseSeconds } from './eta.js';

describe('ETA arithmetic', () => {
  it('divides remaining audio by lane rate and slots', () => {
    expect(drainSeconds({ standard: 600, fast: 0 }, { standard: 3, fast: 20 }, 2)).toBe(100);
    expect(drainSeconds({ standard: 300, fast: 400 }, { standard: 3, fast: 20 }, 1)).toBe(120);
    expect(drainSeconds({ standard: 30, fast: 0 }, { standard: 3, fast: 3 }, 0)).toBe(10);
  });

  it('a job waits for the work before its last task, which spreads over at most its chunks', () => {
    const rates = { standard: 2, fast: 20 };
    expect(jobSeconds({ standard: 0, fast: 0 }, { lane: 'standard', remaining: 12, audioSeconds: 12 }, rates, 2)).toBe(6);
    expect(jobSeconds({ standard: 40, fast: 0 }, { lane: 'standard', remaining: 12, audioSeconds: 12 }, rates, 2)).toBe(16);
    expect(jobSeconds({ standard: 0, fast: 0 }, { lane: 'standard', remaining: 600, audioSeconds: 600 }, rates, 2)).toBe(150);
    expect(jobSeconds({ standard: 0, fast: 0 }, null, rates, 2)).toBe(0);
  });

  it('a fast-lane episode spreads over the endpoint\'s concurrent requests, not the worker slots', () => {
    const rates = { standard: 2, fast: 2 };
    // Ten hours at 2× real time per request, 16 requests at once: about 19 minutes on one worker slot.
    expect(jobSeconds({ standard: 0, fast: 0 }, { lane: 'fast', remaining: 36_000, audioSeconds: 36_000 }, rates, 1, 16)).toBe(1125);
    expect(jobSeconds({ standard: 0, fast: 3600 }, { lane: 'fast', remaining: 60, audioSeconds: 60 }, rates, 1, 16)).toBe(Math.ceil(3600 / 2 / 16 + 60 / 2 / 2));
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
