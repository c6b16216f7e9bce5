import { DomainError } from '../errors.js';
import { billableHours, prices, transcriptionCredits } from '../pricing.js';

/** What searching an episode that has no transcript yet would cost in all. */
export interface NotTranscribedQuote {
  /** Credits to transcribe it on the standard lane, unlock included. */
  transcriptionCredits: number;
  /** Credits for the query itself. */
  queryCredits: number;
  total: number;
  /** The episode's length, or null when the catalog does not know it (the minimum is quoted). */
  durationSeconds: number | null;
}

/** The price table's answer for an episode of `durationSeconds` (null or 0: unknown). */
export function quoteNotTranscribed(durationSeconds: number | null): NotTranscribedQuote {
  const known = durationSeconds !== null && Number.isFinite(durationSeconds) && durationSeconds > 0;
  const transcription = transcriptionCredits(known ? durationSeconds : 0, false);
  return {
    transcriptionCredits: transcription,
    queryCredits: prices.aiSearchQuery,
    total: transcription + prices.aiSearchQuery,
    durationSeconds: known ? durationSeconds : null,
  };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function spokenLength(seconds: number): string {
  const minutes = Math.round(seconds / 60);
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  if (h === 0) return plural(Math.max(1, m), 'minute');
  return m === 0 ? plural(h, 'hour') : `${plural(h, 'hour')} ${plural(m, 'minute')}`;
}

/**
 * The 409 for AI Search on an episode with no transcript: the message quotes
 * the real total, transcription by the price table plus the query, and
 * `details` carries the same figures for programs.
 *
 * @example
 * notTranscribedError('0a1b2c3d4e5f6a7b', 9300, 'none').message
 * // "… 4 credits in all: 3 to transcribe it (2 hours 35 minutes of audio, billed as 3 hours …) and 1 for this query …"
 */
export function notTranscribedError(transcriptId: string, durationSeconds: number | null, transcriptStatus: string): DomainError {
  const q = quoteNotTranscribed(durationSeconds);
  const length =
    q.durationSeconds === null
      ? 'its length is not known yet, so this is the minimum; the request prices it by its length'
      : `${spokenLength(q.durationSeconds)} of audio, billed as ${plural(billableHours(q.durationSeconds), 'hour')}`;
  const underway = transcriptStatus === 'processing' ? ' It is being transcribed now; query it once it is ready.' : '';
  return new DomainError(
    'not_transcribed',
    `Episode ${transcriptId} is not transcribed yet, so it cannot be searched. Searching it takes ${plural(q.total, 'credit')} in all: ` +
      `${q.transcriptionCredits} to transcribe it (${length}; standard lane, unlock included) and ${q.queryCredits} for this query. ` +
      `Request it with POST /requests; once it is transcribed it can be queried repeatedly.${underway}`,
    {
      transcription_credits: q.transcriptionCredits,
      query_credits: q.queryCredits,
      total_credits: q.total,
      duration_seconds: q.durationSeconds,
    },
  );
}
