import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_SCHEDULE, nextAttemptAt } from './retry-schedule.js';

describe('retry schedule', () => {
  it('lands the attempts at +0, +1, +6, +21, +81, +321 minutes, then stops', () => {
    const first = new Date('2026-03-10T12:00:00Z');
    const offsets = [0];
    let at: Date | null = first;
    for (let tries = 1; at; tries++) {
      at = nextAttemptAt(DEFAULT_RETRY_SCHEDULE, tries, at);
      if (at) offsets.push((at.getTime() - first.getTime()) / 60_000);
    }
    expect(offsets).toEqual([0, 1, 6, 21, 81, 321]);
  });

  it('an empty schedule never retries', () => {
    expect(nextAttemptAt([], 1, new Date())).toBeNull();
  });
});
