import { describe, expect, it } from 'vitest';
import { sampleWeight } from './throughput.js';

describe('lane throughput window', () => {
  it('weighs a finished task by the slot time it held, so short episodes barely move the rate and an hour-long one nearly replaces it', () => {
    expect(sampleWeight(15)).toBeLessThan(0.03);
    expect(sampleWeight(300)).toBeCloseTo(1 - Math.exp(-0.5), 6);
    expect(sampleWeight(3600)).toBeGreaterThan(0.99);
  });

  it('folded over a queue of mixed lengths, approaches total audio over total slot time', () => {
    // 15 s episodes carry 10 s of fixed cost each, 90 s ones the same: per-task rates differ.
    const tasks = Array.from({ length: 60 }, (_, i) => (i % 2 ? { audio: 15, slot: 10 + 15 / 2 } : { audio: 90, slot: 10 + 90 / 2 }));
    let rate = tasks[0]!.audio / tasks[0]!.slot;
    for (const t of tasks.slice(1)) rate = rate * (1 - sampleWeight(t.slot)) + (t.audio / t.slot) * sampleWeight(t.slot);
    const pooled = tasks.reduce((n, t) => n + t.audio, 0) / tasks.reduce((n, t) => n + t.slot, 0);
    expect(Math.abs(rate - pooled) / pooled).toBeLessThan(0.05);
  });
});
