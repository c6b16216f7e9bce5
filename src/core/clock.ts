/** Time as the core sees it; tests pass a fake one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** UTC calendar day `YYYY-MM-DD` of `date`. */
export function utcDay(date: Date): string {
  // Every metered call asks; formatting a date each time showed in profiles.
  const day = Math.floor(date.getTime() / 86_400_000);
  if (day !== lastDay) {
    lastDay = day;
    lastDayText = date.toISOString().slice(0, 10);
  }
  return lastDayText;
}

let lastDay = Number.NaN;
let lastDayText = '';

/** Whole seconds from `date` to the next 00:00 UTC, when daily allowances reset (at least 1). */
export function secondsToNextUtcDay(date: Date): number {
  const ms = date.getTime();
  return Math.max(1, Math.ceil((Math.floor(ms / 86_400_000 + 1) * 86_400_000 - ms) / 1000));
}
