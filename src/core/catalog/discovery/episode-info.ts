import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Actor } from '../../accounts/actor.js';
import { notFound } from '../../errors.js';
import { prices } from '../../pricing.js';
import { assertTranscriptId } from '../../transcript-id.js';
import { UNBROWSABLE_SOURCES } from './show-finders.js';

/** Spec 2.6: what a caller needs to decide whether to unlock an episode. */
export interface EpisodeInfo {
  transcriptId: string;
  title: string;
  /** `ready` when a transcript can be read now; otherwise `none` (episode lists also say `processing`). */
  transcriptStatus: 'ready' | 'none';
  /** Whether this account has unlocked it; always true for the public sample episode. */
  unlocked: boolean;
  /** Credits an unlock would cost now: 0 when unlocked (or the sample), 1 when a transcript is ready, null while there is none. */
  unlockCost: number | null;
  /** Words in the transcript; 0 while there is none. */
  wordCount: number;
  /** Length in seconds: the feed's figure, else the transcript's, else 0. */
  durationSeconds: number;
  /** When the episode was published, per its feed; null when the feed gives no usable date. */
  publishedAt: Date | null;
  /** Null for an episode added by request from an audio URL no browsable show lists. */
  show: { feedId: bigint; title: string; author: string; artwork: string } | null;
}

/**
 * Episode info for one caller: the episode, its transcript's size, and
 * whether and at what price this account can read it.
 */
export function createEpisodeInfo(deps: { db: PrismaClient; sampleTranscriptId: string }) {
  const { db, sampleTranscriptId } = deps;
  return {
    /**
     * @throws DomainError `invalid_request` naming `transcript_id` unless 16 lowercase hex; `not_found` for an unknown episode.
     */
    async info(actor: Actor, transcriptId: string): Promise<EpisodeInfo> {
      assertTranscriptId(transcriptId);
      const [episode, unlock] = await Promise.all([
        db.episode.findUnique({
          where: { transcriptId },
          select: {
            transcriptId: true, title: true, transcriptStatus: true, durationSeconds: true, publishedAt: true,
            show: { select: { id: true, title: true, author: true, artwork: true, source: true } },
            transcript: { select: { wordCount: true, durationSeconds: true } },
          },
        }),
        db.unlock.findUnique({ where: { accountId_transcriptId: { accountId: actor.accountId, transcriptId } }, select: { transcriptId: true } }),
      ]);
      if (!episode) throw notFound('transcript_id', `no episode ${transcriptId} in the index`);
      const isSample = transcriptId === sampleTranscriptId;
      const ready = isSample || episode.transcript !== null;
      const unlocked = isSample || unlock !== null;
      return {
        transcriptId: episode.transcriptId,
        title: episode.title,
        transcriptStatus: ready ? 'ready' : 'none',
        unlocked,
        unlockCost: unlocked ? 0 : ready ? prices.unlock : null,
        wordCount: episode.transcript?.wordCount ?? 0,
        durationSeconds: episode.durationSeconds ?? episode.transcript?.durationSeconds ?? 0,
        publishedAt: episode.publishedAt,
        // The shared show of requested episodes cannot be browsed: no address that answers 404.
        show: episode.show && !UNBROWSABLE_SOURCES.includes(episode.show.source) ? { feedId: episode.show.id, title: episode.show.title, author: episode.show.author, artwork: episode.show.artwork } : null,
      };
    },
  };
}
