/** How often feeds are read, and how failing ones back off. All durations in milliseconds. */
export interface RefreshTiming {
  /** Between two reads of a feed's episode list. Default: 3600000 (1 hour). */
  episodesEveryMs: number;
  /** Between two updates of a show's details (title, artwork, …) from its feed. Default: 86400000 (1 day). */
  detailsEveryMs: number;
  /** Each interval is scattered by ± this fraction, so shows added together do not stay in step. Default: 0.1. */
  jitter: number;
  /** First retry after a failed read; doubles with each further failure. Default: 3600000 (1 hour). */
  backoffBaseMs: number;
  /** Longest wait between retries of a failing feed. Default: 604800000 (7 days). */
  backoffCapMs: number;
}

export const defaultRefreshTiming: RefreshTiming = {
  episodesEveryMs: 3_600_000,
  detailsEveryMs: 86_400_000,
  jitter: 0.1,
  backoffBaseMs: 3_600_000,
  backoffCapMs: 7 * 86_400_000,
};

/** `ms` scattered by ± `jitter` of itself; `random` returns [0, 1). */
export function jittered(ms: number, jitter: number, random: () => number): number {
  return Math.round(ms * (1 + jitter * (2 * random() - 1)));
}

/** When to read a feed again after a good read (a 200 or a 304). */
export function nextRegularFetch(now: Date, timing: RefreshTiming, random: () => number): Date {
  return new Date(now.getTime() + jittered(timing.episodesEveryMs, timing.jitter, random));
}

/**
 * When to retry a feed that has now failed `failures` times in a row:
 * base × 2^(failures − 1), at most the cap, jittered.
 *
 * @example nextFailedFetch(now, 3, defaultRefreshTiming, Math.random) // about now + 4 h
 */
export function nextFailedFetch(now: Date, failures: number, timing: RefreshTiming, random: () => number): Date {
  const exponent = Math.min(Math.max(failures, 1) - 1, 40);
  const wait = Math.min(timing.backoffCapMs, timing.backoffBaseMs * 2 ** exponent);
  return new Date(now.getTime() + jittered(wait, timing.jitter, random));
}

/** Whether the show's details are due for an update from its feed. */
export function detailsDue(refreshedAt: Date | null, now: Date, timing: RefreshTiming): boolean {
  return refreshedAt === null || now.getTime() - refreshedAt.getTime() >= timing.detailsEveryMs;
}
