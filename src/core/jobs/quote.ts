import { billableHours, prices, transcriptionCredits } from '../pricing.js';
import { FAST_PREMIUM_PER_HOUR } from './lanes.js';
import type { ResolvedEpisode } from './resolve-episodes.js';

/** What one requested episode costs and why. */
export interface EpisodeQuote {
  episode: ResolvedEpisode;
  /** `library`: already transcribed, unlocked at once; `transcribe`: goes into the job. */
  kind: 'library' | 'transcribe';
  /** Credits charged for it by this request. */
  charged: number;
  /** Billed hours (transcribe only; 0 for library episodes). */
  billedHours: number;
  /** Part of `charged` that is the fast-lane premium, refundable when the promise is not kept. */
  premium: number;
  /** Seconds of audio assumed for the ETA. */
  audioSeconds: number;
}

export interface QuoteContext {
  fast: boolean;
  /** Episodes this account has already unlocked: a library episode costs 0 then. */
  unlocked: ReadonlySet<string>;
  /**
   * Episodes this account already waits for in an unsettled job that paid for
   * them on a lane at least as good: joining again costs 0 (the unlock is
   * already paid for).
   */
  alreadyPaid: ReadonlySet<string>;
  /**
   * Billed hours this account already paid at the standard price for
   * episodes it waits for in an unsettled standard-lane job: a fast request
   * for one adds the premium, and the standard price only of hours beyond
   * those. Default: none.
   */
  standardHoursPaid?: ReadonlyMap<string, number>;
  /** Length assumed when nothing says how long an episode is, in seconds. */
  unknownDurationSeconds: number;
}

/**
 * Prices a request (spec section 1): a library episode 1 credit (0 if
 * unlocked), an episode to transcribe 1 credit per billed hour (2 on the fast
 * lane), the unlock included; on the fast lane, hours the account already
 * pays for on the standard lane cost only the premium. Pure, so dry runs and
 * real requests agree.
 */
export function quoteEpisodes(episodes: readonly ResolvedEpisode[], ctx: QuoteContext): EpisodeQuote[] {
  return episodes.map((episode) => {
    const audioSeconds = episode.durationSeconds ?? ctx.unknownDurationSeconds;
    if (episode.status === 'ready') {
      const charged = ctx.unlocked.has(episode.transcriptId) ? 0 : prices.unlock;
      return { episode, kind: 'library', charged, billedHours: 0, premium: 0, audioSeconds };
    }
    const hours = billableHours(audioSeconds);
    if (ctx.alreadyPaid.has(episode.transcriptId)) {
      return { episode, kind: 'transcribe', charged: 0, billedHours: hours, premium: 0, audioSeconds };
    }
    const premium = ctx.fast ? hours * FAST_PREMIUM_PER_HOUR : 0;
    // Moving an episode this account already pays for on the standard lane to the fast lane: the standard part is paid.
    const paidHours = ctx.fast ? Math.min(hours, ctx.standardHoursPaid?.get(episode.transcriptId) ?? 0) : 0;
    return {
      episode,
      kind: 'transcribe',
      charged: transcriptionCredits(audioSeconds, ctx.fast) - paidHours * prices.transcribePerHour,
      billedHours: hours,
      premium,
      audioSeconds,
    };
  });
}

/** Sum of what the quoted episodes cost. */
export function quoteTotal(quotes: readonly EpisodeQuote[]): number {
  return quotes.reduce((n, q) => n + q.charged, 0);
}

/**
 * Longest audio a task may decode given the hours paid for it: rounding to
 * the nearest hour means h billed hours cover up to h + 0.5 hours.
 */
export function paidSeconds(billedHours: number, cap: number): number {
  return Math.min(cap, Math.round((billedHours + 0.5) * 3600) - 1);
}
