import { describe, expect, it } from 'vitest';
import { defaultRefreshTiming, detailsDue, jittered, nextFailedFetch, nextRegularFetch } from './refresh-timing.js';

const now = new Date('2026-03-10T12:00:00Z');
const hour = 3_600_000;
const at = (d: Date) => d.getTime() - now.getTime();

describe('refresh timing', () => {
  it('scatters an interval by at most the jitter', () => {
    expect(jittered(1000, 0.1, () => 0)).toBe(900);
    expect(jittered(1000, 0.1, () => 0.5)).toBe(1000);
    expect(jittered(1000, 0.1, () => 0.999999)).toBe(1100);
  });

  it('reads a healthy feed about hourly', () => {
    expect(at(nextRegularFetch(now, defaultRefreshTiming, () => 0.5))).toBe(hour);
    expect(at(nextRegularFetch(now, defaultRefreshTiming, () => 0))).toBe(0.9 * hour);
  });

  it('backs off exponentially up to the cap', () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => at(nextFailedFetch(now, n, defaultRefreshTiming, mid)) / hour)).toEqual([1, 2, 4, 8]);
    expect(at(nextFailedFetch(now, 8, defaultRefreshTiming, mid))).toBe(128 * hour);
    expect(at(nextFailedFetch(now, 9, defaultRefreshTiming, mid))).toBe(7 * 24 * hour);
    expect(at(nextFailedFetch(now, 500, defaultRefreshTiming, mid))).toBe(7 * 24 * hour);
  });

  it('updates details daily', () => {
    expect(detailsDue(null, now, defaultRefreshTiming)).toBe(true);
    expect(detailsDue(new Date(now.getTime() - 23 * hour), now, defaultRefreshTiming)).toBe(false);
    expect(detailsDue(new Date(now.getTime() - 24 * hour), now, defaultRefreshTiming)).toBe(true);
  });
});
