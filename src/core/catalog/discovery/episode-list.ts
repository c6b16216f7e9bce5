import type { Episode, Prisma, PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { DomainError, invalid } from '../../errors.js';
import type { CatalogIngest } from '../ingest/catalog-ingest.js';
import { EPISODE_LIST, listLength } from './discovery-input.js';
import { findById } from './show-finders.js';

/** A Prisma `include`/`select` for episodes, as a GraphQL resolver passes it through. */
export type EpisodeQuery = { include?: Prisma.EpisodeInclude; select?: Prisma.EpisodeSelect };

export interface EpisodeList {
  show: Show;
  /** Episodes of the show with a readable transcript (all of them, not only those listed). */
  readyCount: number;
  /** True when older episodes exist that the list leaves out: past `max`, or beyond what the feed still carries. */
  truncated: boolean;
  /** Newest first. */
  episodes: Episode[];
  /** Whether episodes follow this page (older ones, past `max`). */
  hasMore: boolean;
}

export interface EpisodePageInput {
  /** Episodes wanted: 1..1000. Default: 100. */
  max?: number | string | null;
  /** Continue after this episode (a transcript id from the previous page). */
  after?: string | null;
  /** The name callers know the length by, for errors. Default: `max`. */
  maxField?: string;
  /** The name callers know `after` by, for errors. Default: `after`. */
  afterField?: string;
  query?: EpisodeQuery;
}

// Newest first; episodes without a date last; the transcript id breaks ties so pages are stable.
const NEWEST_FIRST: Prisma.EpisodeOrderByWithRelationInput[] = [{ publishedAt: { sort: 'desc', nulls: 'last' } }, { transcriptId: 'asc' }];

/**
 * A show's episodes, newest first. A show known only from a directory import
 * (never fetched, but scheduled) has its feed read on this first request,
 * so its list is not empty for want of a visit.
 */
export function createEpisodeLister(deps: { db: PrismaClient; catalogIngest: Pick<CatalogIngest, 'refreshShow'>; log: Logger }) {
  const { db, catalogIngest, log } = deps;

  async function firstFetch(show: Show): Promise<Show> {
    if (show.lastFetchedAt || !show.nextFetchAt || !show.feedUrl || show.dead) return show;
    try {
      await catalogIngest.refreshShow(show.id);
    } catch (err) {
      log.warn({ err, feedId: String(show.id) }, 'first read of a feed failed; listing what the index has');
    }
    return (await findById(db, show.id)) ?? show;
  }

  return {
    /**
     * @throws DomainError `invalid_request` naming `max`/`after`; `not_found` for an unknown show.
     */
    async list(feedId: bigint, input: EpisodePageInput = {}): Promise<EpisodeList> {
      const max = listLength(input.max, EPISODE_LIST, input.maxField ?? 'max');
      let show = await findById(db, feedId);
      if (!show) throw new DomainError('not_found', `feed_id: no show ${feedId} in the index`);
      show = await firstFetch(show);
      let cursor: Prisma.EpisodeWhereUniqueInput | undefined;
      if (input.after) {
        const from = await db.episode.findUnique({ where: { transcriptId: input.after }, select: { showId: true } });
        if (from?.showId !== feedId) throw invalid(input.afterField ?? 'after', 'not a cursor of this show\'s episode list');
        cursor = { transcriptId: input.after };
      }
      const [rows, readyCount] = await Promise.all([
        db.episode.findMany({
          ...input.query,
          where: { showId: feedId },
          orderBy: NEWEST_FIRST,
          take: max + 1,
          ...(cursor ? { cursor, skip: 1 } : {}),
        }) as Promise<Episode[]>,
        db.episode.count({ where: { showId: feedId, transcriptStatus: 'ready' } }),
      ]);
      const hasMore = rows.length > max;
      return { show, readyCount, truncated: hasMore || show.truncated, episodes: rows.slice(0, max), hasMore };
    },
  };
}
