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

/** Hours, minutes and seconds as spoken, never rounded up past a billing boundary (5399 s is not "1 hour 30 minutes"). */
function spokenLength(seconds: number): string {
  const total = Math.floor(seconds);
  const parts = [plural(Math.floor(total / 3600), 'hour'), plural(Math.floor((total % 3600) / 60), 'minute'), plural(total % 60, 'second')];
  const said = parts.filter((p) => !p.startsWith('0 '));
  return said.length ? said.join(' ') : '1 second';
}

/**
 * The 409 for AI Search on an episode with no transcript: the message quotes
 * the real total, transcription by the price table plus the query, and
 * `details` carries the same figures for the core (the error body itself has only `code` and `message`).
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
  // Under way (for this key or another): nothing more to pay for, only to wait.
  const message =
    transcriptStatus === 'processing'
      ? `Episode ${transcriptId} is being transcribed now, so it cannot be searched yet; query it once it is ready (${plural(q.queryCredits, 'credit')} a query). ` +
        `Had nobody requested it, searching it would take ${plural(q.total, 'credit')} in all (${length}).`
      : `Episode ${transcriptId} is not transcribed yet, so it cannot be searched. Searching it takes ${plural(q.total, 'credit')} in all: ` +
        `${q.transcriptionCredits} to transcribe it (${length}; standard lane, unlock included) and ${q.queryCredits} for this query. ` +
        'Request it with POST /requests (GraphQL: requestTranscription); once it is transcribed it can be queried repeatedly.';
  return new DomainError(
    'not_transcribed',
    message,
    {
      transcription_credits: q.transcriptionCredits,
      query_credits: q.queryCredits,
      total_credits: q.total,
      duration_seconds: q.durationSeconds,
    },
  );
}
