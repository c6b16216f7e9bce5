import type { Episode, Prisma, PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { DomainError, invalid } from '../../errors.js';
import type { CatalogIngest } from '../ingest/catalog-ingest.js';
import { EPISODE_LIST, listLength } from './discovery-input.js';

/** A Prisma `include`/`select` for episodes, as a GraphQL resolver passes it through. */
export type EpisodeQuery = { include?: Prisma.EpisodeInclude; select?: Prisma.EpisodeSelect };

/** What an Episode (spec 2.5) is made of. */
export type EpisodeRow = Pick<
  Episode,
  'transcriptId' | 'guid' | 'title' | 'description' | 'episodeNumber' | 'season' | 'publishedAt' | 'durationSeconds' | 'audioUrl' | 'transcriptStatus'
>;

export interface EpisodeList {
  show: Show;
  /** Episodes of the show with a readable transcript (all of them, not only those listed). */
  readyCount: number;
  /** True when older episodes exist that the list leaves out: past `max`, or beyond what the feed still carries. */
  truncated: boolean;
  /** Newest first. Whole rows (or what `query` selects) when a `query` is given. */
  episodes: EpisodeRow[];
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

type EpisodeJson = Omit<EpisodeRow, 'publishedAt'> & { publishedAt: string | null };

/**
 * The first `take` episodes in {@link NEWEST_FIRST} order, as one JSON value:
 * on the embedded database, handing a thousand rows over one field at a time
 * costs several times the query itself.
 */
async function newestEpisodes(db: PrismaClient, feedId: bigint, take: number): Promise<EpisodeRow[]> {
  const [row] = await db.$queryRawUnsafe<{ rows: string }[]>(
    `SELECT coalesce(json_agg(e), '[]')::text AS rows FROM (
       SELECT transcript_id AS "transcriptId", guid, title, description, episode_number AS "episodeNumber", season,
         published_at AS "publishedAt", duration_seconds AS "durationSeconds", audio_url AS "audioUrl", transcript_status AS "transcriptStatus"
       FROM episodes WHERE show_id = $1 ORDER BY published_at DESC NULLS LAST, transcript_id LIMIT $2) e`,
    feedId,
    take,
  );
  return (JSON.parse(row!.rows) as EpisodeJson[]).map((e) => ({ ...e, publishedAt: e.publishedAt === null ? null : new Date(e.publishedAt) }));
}

/**
 * A show's episodes, newest first. A show known only from a directory import
 * (never fetched, but scheduled) has its feed read on this first request,
 * so its list is not empty for want of a visit.
 */
export function createEpisodeLister(deps: { db: PrismaClient; catalogIngest: Pick<CatalogIngest, 'refreshShow'>; log: Logger }) {
  const { db, catalogIngest, log } = deps;

  // The show and its ready count in one statement.
  async function showWithReadyCount(feedId: bigint): Promise<{ show: Show; readyCount: number } | null> {
    const row = await db.show.findUnique({ where: { id: feedId }, include: { _count: { select: { episodes: { where: { transcriptStatus: 'ready' } } } } } });
    if (!row) return null;
    const { _count, ...show } = row;
    return { show, readyCount: _count.episodes };
  }

  async function firstFetch(found: { show: Show; readyCount: number }): Promise<{ show: Show; readyCount: number }> {
    const { show } = found;
    if (show.lastFetchedAt || !show.nextFetchAt || !show.feedUrl || show.dead) return found;
    try {
      await catalogIngest.refreshShow(show.id);
    } catch (err) {
      log.warn({ err, feedId: String(show.id) }, 'first read of a feed failed; listing what the index has');
    }
    return (await showWithReadyCount(show.id)) ?? found;
  }

  return {
    /**
     * @throws DomainError `invalid_request` naming `max`/`after`; `not_found` for an unknown show.
     */
    async list(feedId: bigint, input: EpisodePageInput = {}): Promise<EpisodeList> {
      const max = listLength(input.max, EPISODE_LIST, input.maxField ?? 'max');
      const found = await showWithReadyCount(feedId);
      if (!found) throw new DomainError('not_found', `feed_id: no show ${feedId} in the index`);
      const { show, readyCount } = await firstFetch(found);
      let cursor: Prisma.EpisodeWhereUniqueInput | undefined;
      if (input.after) {
        const from = await db.episode.findUnique({ where: { transcriptId: input.after }, select: { showId: true } });
        if (from?.showId !== feedId) throw invalid(input.afterField ?? 'after', 'not a cursor of this show\'s episode list');
        cursor = { transcriptId: input.after };
      }
      const rows = input.query || cursor
        ? ((await db.episode.findMany({ ...input.query, where: { showId: feedId }, orderBy: NEWEST_FIRST, take: max + 1, ...(cursor ? { cursor, skip: 1 } : {}) })) as EpisodeRow[])
        : await newestEpisodes(db, feedId, max + 1);
      const hasMore = rows.length > max;
      return { show, readyCount, truncated: hasMore || show.truncated, episodes: rows.slice(0, max), hasMore };
    },
  };
}
