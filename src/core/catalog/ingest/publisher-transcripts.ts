import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import { OutboundError } from '../../../infra/outbound/outbound-error.js';
import type { Clock } from '../../clock.js';
import { charsetOf } from '../../decode-text.js';
import { inTransaction } from '../../transaction.js';
import { parseTranscript } from '../../transcripts/formats/parse-transcript.js';
import type { TranscriptDoc } from '../../transcripts/formats/transcript-doc.js';
import { TranscriptParseError } from '../../transcripts/formats/transcript-parse-error.js';
import { saveTranscript } from '../../transcripts/transcript-store.js';
import { type HostLimiter, hostOf, mapWithConcurrency } from './host-limiter.js';

/** Limits and retry policy for publisher transcripts. */
export interface TranscriptFetchOptions {
  /** Largest transcript accepted, in bytes. Default: 20971520 (20 MB). */
  maxTranscriptBytes: number;
  /** Whole exchange, in ms. Default: 60000. */
  transcriptTimeoutMs: number;
  /** Tries per link before it is given up (until the feed names another URL). Default: 3. */
  maxAttempts: number;
  /** Wait before the second try, in ms; each later wait is 4 times longer. Default: 3600000 (1 hour). */
  retryBaseMs: number;
  /** Fetches in flight at once (the per-host limit applies too). Default: 4. */
  transcriptConcurrency: number;
  /** How long a claimed fetch stays reserved for its worker, in ms. Default: 600000 (10 min). */
  transcriptLeaseMs: number;
}

export const defaultTranscriptFetchOptions: TranscriptFetchOptions = {
  maxTranscriptBytes: 20 * 1024 * 1024,
  transcriptTimeoutMs: 60_000,
  maxAttempts: 3,
  retryBaseMs: 3_600_000,
  transcriptConcurrency: 4,
  transcriptLeaseMs: 600_000,
};

interface Claimed {
  transcript_id: string;
  url: string;
  type: string;
  language: string | null;
  attempts: number;
}

/** A failure that retrying will not fix (refused address, 404, unreadable body). */
class PermanentFailure extends Error {}

const PERMANENT_CODES = new Set(['blocked_address', 'bad_scheme', 'bad_url', 'too_large', 'too_many_redirects']);
const ACCEPT = 'application/json, text/vtt, application/x-subrip, application/srt, text/html;q=0.8, text/plain;q=0.7, */*;q=0.5';

function isPermanent(err: unknown): boolean {
  if (err instanceof PermanentFailure || err instanceof TranscriptParseError) return true;
  return err instanceof OutboundError && PERMANENT_CODES.has(err.code);
}

/** Seconds to the end of the last segment; null for untimed transcripts. */
function durationOf(doc: TranscriptDoc): number | null {
  const end = doc.segments.reduce((max, s) => Math.max(max, s.end), 0);
  return end > 0 ? end : null;
}

/**
 * Fetches the transcripts feeds link with `<podcast:transcript>`, through the
 * guarded client, and stores them as version 1 with source `publisher`; the
 * episode becomes `ready`. The work list is `publisher_transcript_fetches`,
 * claimed with SKIP LOCKED so several workers can share it.
 */
export function createTranscriptFetcher(deps: {
  db: PrismaClient;
  outbound: OutboundClient;
  clock: Clock;
  log: Logger;
  limiter: HostLimiter;
  options?: Partial<TranscriptFetchOptions>;
}) {
  const { db, outbound, clock, log, limiter } = deps;
  const opts = { ...defaultTranscriptFetchOptions, ...deps.options };

  async function claim(showId: bigint | null, limit: number): Promise<Claimed[]> {
    const now = clock.now();
    return db.$queryRawUnsafe<Claimed[]>(
      `UPDATE publisher_transcript_fetches f SET attempts = f.attempts + 1, next_attempt_at = $2
       FROM (SELECT p.transcript_id FROM publisher_transcript_fetches p JOIN episodes e USING (transcript_id)
             WHERE p.next_attempt_at <= $1 AND ($3::bigint IS NULL OR p.show_id = $3::bigint)
             ORDER BY p.next_attempt_at, e.published_at DESC NULLS LAST
             LIMIT $4 FOR UPDATE OF p SKIP LOCKED) due
       WHERE f.transcript_id = due.transcript_id
       RETURNING f.transcript_id, f.url, f.type, f.language, f.attempts`,
      now,
      new Date(now.getTime() + opts.transcriptLeaseMs),
      showId,
      limit,
    );
  }

  async function download(c: Claimed, signal?: AbortSignal): Promise<TranscriptDoc> {
    const res = await outbound.request(c.url, {
      headers: { accept: ACCEPT },
      maxBytes: opts.maxTranscriptBytes,
      timeoutMs: opts.transcriptTimeoutMs,
      signal,
    });
    if (res.status < 200 || res.status >= 300) {
      const message = `the transcript server answered ${res.status}`;
      throw res.status >= 500 || res.status === 408 || res.status === 429 ? new Error(message) : new PermanentFailure(message);
    }
    const served = res.headers['content-type'];
    // The feed's type picks the format (servers often say text/plain or octet-stream); the
    // server's charset decodes the bytes it sent (else the feed type's, else UTF-8).
    const doc = parseTranscript(res.body, c.type || served || '', charsetOf(served));
    if (doc.segments.length === 0) throw new PermanentFailure('the transcript holds no text');
    return doc;
  }

  async function store(c: Claimed, doc: TranscriptDoc): Promise<void> {
    await inTransaction(db, async (tx) => {
      const [episode] = await tx.$queryRawUnsafe<{ transcript_status: string; language: string | null }[]>(
        `SELECT e.transcript_status, s.language FROM episodes e JOIN shows s ON s.id = e.show_id
         WHERE e.transcript_id = $1 FOR UPDATE OF e`,
        c.transcript_id,
      );
      // An episode already processing or ready (speech recognition got there first) keeps its own transcript.
      if (episode?.transcript_status === 'none') {
        await saveTranscript(tx, {
          transcriptId: c.transcript_id,
          doc,
          source: 'publisher',
          language: doc.language ?? c.language?.toLowerCase() ?? episode.language,
          durationSeconds: durationOf(doc),
        });
      }
      await tx.$executeRawUnsafe(`DELETE FROM publisher_transcript_fetches WHERE transcript_id = $1`, c.transcript_id);
    });
  }

  async function failed(c: Claimed, err: unknown): Promise<void> {
    const giveUp = isPermanent(err) || c.attempts >= opts.maxAttempts;
    const retryAt = giveUp ? null : new Date(clock.now().getTime() + opts.retryBaseMs * 4 ** (c.attempts - 1));
    const message = (err as Error).message.slice(0, 500);
    log.warn({ transcriptId: c.transcript_id, url: c.url, attempt: c.attempts, giveUp, err: message }, 'publisher transcript not stored');
    // The attempt number fences a worker whose lease ran out while another took over.
    await db.$executeRawUnsafe(
      `UPDATE publisher_transcript_fetches SET last_error = $2, next_attempt_at = $3 WHERE transcript_id = $1 AND attempts = $4`,
      c.transcript_id,
      message,
      retryAt,
      c.attempts,
    );
  }

  /** Hands a claimed fetch back untried, due now, as if never claimed (unless another worker took it over). */
  async function release(c: Claimed): Promise<void> {
    await db.$executeRawUnsafe(
      `UPDATE publisher_transcript_fetches SET attempts = attempts - 1, next_attempt_at = $2 WHERE transcript_id = $1 AND attempts = $3`,
      c.transcript_id,
      clock.now(),
      c.attempts,
    );
  }

  async function one(c: Claimed, signal?: AbortSignal): Promise<boolean> {
    try {
      if (signal?.aborted) throw signal.reason;
      const doc = await limiter.run(hostOf(c.url), () => {
        if (signal?.aborted) throw signal.reason;
        return download(c, signal);
      });
      await store(c, doc);
      return true;
    } catch (err) {
      // A stop in the middle is no failure of the link: it is handed back for the next pass.
      if (signal?.aborted) {
        // Not handed back (the database going away at shutdown): its lease brings it back instead.
        await release(c).catch((releaseErr: unknown) => log.warn({ transcriptId: c.transcript_id, err: (releaseErr as Error).message }, 'publisher transcript fetch left to its lease'));
        return false;
      }
      await failed(c, err);
      return false;
    }
  }

  return {
    /**
     * Fetches up to `limit` due transcripts, newest episodes first; of one
     * show when `showId` is given.
     * @returns how many were stored and how many failed this time.
     */
    async fetchDue(input: { showId?: bigint; limit: number; signal?: AbortSignal }): Promise<{ stored: number; failed: number }> {
      if (input.limit <= 0) return { stored: 0, failed: 0 };
      const claimed = await claim(input.showId ?? null, input.limit);
      const outcomes = await mapWithConcurrency(claimed, opts.transcriptConcurrency, (c) => one(c, input.signal));
      const stored = outcomes.filter(Boolean).length;
      return { stored, failed: claimed.length - stored };
    },
  };
}

export type TranscriptFetcher = ReturnType<typeof createTranscriptFetcher>;
