/** The spec's waits after each failed attempt, in seconds: 1, 5, 15, 60 and 240 minutes. */
export const DEFAULT_RETRY_SCHEDULE = [60, 300, 900, 3600, 14_400] as const;

/**
 * When to try again after attempt number `tries` (1-based) failed at `at`, or
 * null when the schedule is spent and delivery stops. Waits count from the
 * start of the failed attempt, so the attempts land at fixed offsets from the
 * first (+0, +1, +6, +21, +81, +321 minutes with the default schedule),
 * however long each one took.
 *
 * @example nextAttemptAt([60, 300], 1, t0) // t0 + 60 s
 * @example nextAttemptAt([60, 300], 3, t0) // null: three attempts made, the schedule allows two retries
 */
export function nextAttemptAt(schedule: readonly number[], tries: number, at: Date): Date | null {
  const wait = schedule[tries - 1];
  return wait === undefined ? null : new Date(at.getTime() + wait * 1000);
}
