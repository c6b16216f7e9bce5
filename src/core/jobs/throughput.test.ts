import { describe, expect, it } from 'vitest';
import { fitCost, type FitSums, foldSample, sampleWeight } from './throughput.js';

describe('lane throughput window', () => {
  it('weighs a finished task by the slot time it held, so short episodes barely move the rate and an hour-long one nearly replaces it', () => {
    expect(sampleWeight(15)).toBeLessThan(0.03);
    expect(sampleWeight(300)).toBeCloseTo(1 - Math.exp(-0.5), 6);
    expect(sampleWeight(3600)).toBeGreaterThan(0.99);
  });

  it('folded over a queue of mixed lengths, learns the fixed cost per task and the rate per audio second', () => {
    // 15 s and 90 s episodes, each with 10 s of fixed cost and 0.5 slot-seconds per audio second.
    const tasks = Array.from({ length: 60 }, (_, i) => (i % 2 ? { audio: 15, slot: 10 + 15 / 2 } : { audio: 90, slot: 10 + 90 / 2 }));
    let sums: FitSums | null = null;
    tasks.forEach((t, n) => (sums = foldSample(sums, n, t.audio, t.slot)));
    const fit = fitCost(sums!)!;
    expect(fit.rate).toBeCloseTo(2, 3);
    expect(fit.fixed).toBeCloseTo(10, 2);
  });
});

describe('lane cost fit', () => {
  const sums = (tasks: [audio: number, slot: number][]) =>
    tasks.reduce((s, [x, y]) => ({ w: s.w + 1, x: s.x + x, y: s.y + y, xx: s.xx + x * x, xy: s.xy + x * y }), { w: 0, x: 0, y: 0, xx: 0, xy: 0 });

  it('separates a fixed cost per task from the rate when lengths differ', () => {
    // 10 s per task plus 0.25 slot-seconds per audio second.
    const fit = fitCost(sums([[15, 13.75], [40, 20], [90, 32.5]]))!;
    expect(fit.rate).toBeCloseTo(4, 5);
    expect(fit.fixed).toBeCloseTo(10, 5);
  });

  it('puts all the time on the audio when lengths are alike or the fit is not physical', () => {
    expect(fitCost(sums([[60, 20], [60, 30]]))).toEqual({ rate: 2.4, fixed: 0 });
    // Longer tasks took less time: no negative rate.
    expect(fitCost(sums([[15, 30], [90, 20]]))!.fixed).toBe(0);
    expect(fitCost(sums([]))).toBeNull();
  });
});
