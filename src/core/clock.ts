/** Time as the core sees it; tests pass a fake one. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** UTC calendar day `YYYY-MM-DD` of `date`. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}
