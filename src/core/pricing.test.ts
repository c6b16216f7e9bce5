import { describe, expect, it } from 'vitest';
import { billableHours, plans, transcriptionCredits } from './pricing.js';

describe('hour rounding: nearest hour, half up, minimum 1', () => {
  it.each([
    [0, 1],
    [1, 1],
    [1799, 1],
    [1800, 1],
    [3599, 1],
    [3600, 1],
    [5399, 1],
    [5400, 2],
    [36000, 10],
  ])('%i s bills %i hour(s)', (seconds, hours) => {
    expect(billableHours(seconds)).toBe(hours);
    expect(Number.isInteger(billableHours(seconds))).toBe(true);
  });

  it('fast lane costs twice the standard lane', () => {
    expect(transcriptionCredits(5400, false)).toBe(2);
    expect(transcriptionCredits(5400, true)).toBe(4);
  });

  it('rejects impossible durations', () => {
    expect(() => billableHours(-1)).toThrow(RangeError);
    expect(() => billableHours(Number.NaN)).toThrow(RangeError);
  });

  it('plans pair each credit plan with its request allowance', () => {
    expect(Object.values(plans).map((p) => [p.monthlyCredits, p.priceUsd, p.dailyRequests])).toEqual([
      [10, 0, 1000],
      [120, 9, 5000],
      [500, 29, 20000],
      [2000, 99, 50000],
    ]);
  });
});
