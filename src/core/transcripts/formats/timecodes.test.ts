import { describe, expect, it } from 'vitest';
import { formatClock, parseClock, roundMs } from './timecodes.js';

describe('parseClock', () => {
  it.each([
    ['00:00:01,000', 1],
    ['00:01:02.500', 62.5],
    ['0:00:15.410', 15.41],
    ['12:34.5', 754.5],
    ['1:42', 102],
    ['10:17', 617],
    ['100:00:00.000', 360_000],
    ['00:00:00,0004', 0],
    ['75:30', 4530],
    ['125:00,250', 7500.25],
  ])('reads %s as %d s', (text, seconds) => {
    expect(parseClock(text)).toBe(seconds);
  });

  it.each(['', 'abc', '00:60:00.000', '00:00:60.000', '1:075:00', '75:60', '1:2:3:4', '-00:00:01.000', '00:00:01.000x'])(
    'rejects %j',
    (text) => {
      expect(parseClock(text)).toBeNull();
    },
  );
});

describe('formatClock', () => {
  it('pads every field and writes hours past 99', () => {
    expect(formatClock(0, ',')).toBe('00:00:00,000');
    expect(formatClock(3725.5, ',')).toBe('01:02:05,500');
    expect(formatClock(3725.5, '.')).toBe('01:02:05.500');
    expect(formatClock(360_001.001, '.')).toBe('100:00:01.001');
  });

  it('does not let float noise reach the output', () => {
    expect(formatClock(0.1 + 0.2, '.')).toBe('00:00:00.300');
    expect(formatClock(59.9999, '.')).toBe('00:01:00.000');
  });

  it('writes negative times as zero', () => {
    expect(formatClock(-3, ',')).toBe('00:00:00,000');
  });

  it('round-trips through parseClock', () => {
    for (const t of [0, 0.001, 59.999, 3599.999, 86_400.123]) {
      expect(parseClock(formatClock(t, ','))).toBe(roundMs(t));
    }
  });
});
