import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../generated/prisma/client.js';
import type { EventBus } from '../../infra/events/event-bus.js';
import type { Logger } from '../../infra/logger.js';

/**
 * Longest a cached version is trusted without an event, in ms: a bound on
 * staleness should a `transcript.stored` notification from another process
 * be lost. Default: 60000.
 */
const VERSION_BACKSTOP_MS = 60_000;

/**
 * The current version of each held transcript, so that a warm read needs no
 * database round trip. Only held transcripts are cached; a new version, or a
 * transcript withdrawn (one made from a requester's file when the feed that
 * took the episode over serves another recording), drops the entry in every
 * process through the `transcript.stored` event, published by `stored` once
 * the change has been committed.
 */
export function createTranscriptVersions(deps: { db: PrismaClient; bus: EventBus; log: Pick<Logger, 'warn'> }) {
  const { db, bus } = deps;
  const versions = new LRUCache<string, number>({ max: 100_000, ttl: VERSION_BACKSTOP_MS });
  // Bumped by every drop: a read that raced one does not cache what it read.
  let drops = 0;

  bus.subscribe((e) => {
    if (e.type === 'transcript.stored') {
      drops++;
      versions.delete(e.transcriptId);
    } else if (e.type === 'bus.reconnected') {
      drops++;
      versions.clear();
    }
  });

  return {
    /** The stored version, or null while there is no transcript. */
    async current(transcriptId: string): Promise<number | null> {
      const hit = versions.get(transcriptId);
      if (hit !== undefined) return hit;
      const seen = drops;
      const row = await db.transcript.findUnique({ where: { transcriptId }, select: { version: true } });
      if (row && seen === drops) versions.set(transcriptId, row.version);
      return row?.version ?? null;
    },

    /** Call after committing a new version: every process forgets the old one. */
    stored(transcriptId: string): void {
      bus.publish({ type: 'transcript.stored', transcriptId }).catch((err: unknown) => deps.log.warn({ err, transcriptId }, 'transcript.stored not announced'));
    },
  };
}
