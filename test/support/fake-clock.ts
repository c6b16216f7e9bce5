import type { Clock } from '../../src/core/clock.js';

export interface FakeClock extends Clock {
  set(date: Date | string): void;
  advance(ms: number): void;
}

/** A clock that only moves when told to. */
export function fakeClock(start: Date | string = '2026-03-10T12:00:00Z'): FakeClock {
  let t = new Date(start).getTime();
  return {
    now: () => new Date(t),
    set: (d) => {
      t = new Date(d).getTime();
    },
    advance: (ms) => {
      t += ms;
    },
  };
}
