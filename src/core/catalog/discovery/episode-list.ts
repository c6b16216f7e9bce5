import { LRUCache } from 'lru-cache';
import type { Episode, Prisma, PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { Clock } from '../../clock.js';
import { invalid, notFound } from '../../errors.js';
import { TRANSCRIPT_ID } from '../../transcript-id.js';
import type { CatalogIngest } from '../ingest/catalog-ingest.js';
import { EPISODE_LIST, listLength } from './discovery-input.js';
import { EPISODES_NEWEST_FIRST, EPISODES_NEWEST_FIRST_SQL } from './episode-order.js';
import { type EpisodeListState, episodeListState } from './episode-list-state.js';
import { UNBROWSABLE_SOURCES, findById } from './show-finders.js';

/** Episodes kept in cached lists, all lists together. Default: 20000. */
const CACHED_EPISODES = 20_000;
/** Longest a cached list is served, in ms, however its stamp compares. Default: 600000 (10 min). */
const CACHED_LIST_MS = 600_000;

const NOT_A_CURSOR = "not a cursor of this show's episode list";

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
  /**
   * True when the directory stops tracking further back (spec 4.2): the show
   * has more episodes than the 1000 a list can hold, or its feed carried more
   * than were kept. Not set by `max` alone: `hasMore` says that.
   */
  truncated: boolean;
  /** Newest first. Whole rows (or what `query` selects) when a `query` is given. Shared between callers: read only. */
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
  /**
   * With `query` or `after`: whether the caller reads `truncated`. Counting the
   * show's episodes for it (more than a list holds?) costs a statement; not
   * asked, `truncated` says only whether the feed carried more than was kept.
   * Default: true.
   */
  truncated?: boolean;
}

type EpisodeJson = Omit<EpisodeRow, 'publishedAt'> & { publishedAt: string | null };

/**
 * The first `take` episodes in {@link EPISODES_NEWEST_FIRST} order, as one JSON value:
 * on the embedded database, handing a thousand rows over one field at a time
 * costs several times the query itself.
 */
async function newestEpisodes(db: PrismaClient, feedId: bigint, take: number): Promise<EpisodeRow[]> {
  const [row] = await db.$queryRawUnsafe<{ rows: string }[]>(
    `SELECT coalesce(json_agg(e), '[]')::text AS rows FROM (
       SELECT transcript_id AS "transcriptId", guid, title, description, episode_number AS "episodeNumber", season,
         published_at AS "publishedAt", duration_seconds AS "durationSeconds", audio_url AS "audioUrl", transcript_status AS "transcriptStatus"
       FROM episodes WHERE show_id = $1 ORDER BY ${EPISODES_NEWEST_FIRST_SQL} LIMIT $2) e`,
    feedId,
    take,
  );
  return (JSON.parse(row!.rows) as EpisodeJson[]).map((e) => ({ ...e, publishedAt: e.publishedAt === null ? null : new Date(e.publishedAt) }));
}

/**
 * A show's episodes, newest first. A show known only from a directory import
 * (never fetched, but scheduled) has its feed read on this first request,
 * so its list is not empty for want of a visit; after a failed read, again
 * only once the feed's backoff has passed (as the refresher would).
 *
 * The plain list (no `query`, no `after`: what REST asks for) is cached per
 * show and length, and served while nothing has been committed since, or the
 * list's stamp ({@link episodeListState}) is unchanged: one cheap statement
 * instead of reading a thousand rows. The cached object is the same on every
 * hit, so a caller may memoise what it makes of it by identity.
 */
export function createEpisodeLister(deps: { db: PrismaClient; catalogIngest: Pick<CatalogIngest, 'refreshShow'>; clock: Clock; log: Logger }) {
  const { db, catalogIngest, clock, log } = deps;
  const lists = new LRUCache<string, { state: EpisodeListState; list: EpisodeList }>({
    maxSize: CACHED_EPISODES,
    sizeCalculation: (e) => e.list.episodes.length + 1,
    ttl: CACHED_LIST_MS,
  });

  // The show and its ready count in one statement.
  async function showWithReadyCount(feedId: bigint): Promise<{ show: Show; readyCount: number } | null> {
    const row = await db.show.findUnique({ where: { id: feedId, source: { notIn: UNBROWSABLE_SOURCES } }, include: { _count: { select: { episodes: { where: { transcriptStatus: 'ready' } } } } } });
    if (!row) return null;
    const { _count, ...show } = row;
    return { show, readyCount: _count.episodes };
  }

  async function firstRead(feedId: bigint): Promise<void> {
    try {
      await catalogIngest.refreshShow(feedId);
    } catch (err) {
      log.warn({ err, feedId: String(feedId) }, 'first read of a feed failed; listing what the index has');
    }
  }

  /** See {@link EpisodeList.truncated}. */
  const stopsShort = (show: Show, total: number) => show.truncated || total > EPISODE_LIST.max;

  const noShow = (feedId: bigint) => notFound('feed_id', `no show ${feedId} in the index`);

  /** The newest `max`, through the cache. */
  async function newest(feedId: bigint, max: number): Promise<EpisodeList> {
    const key = `${feedId}:${max}`;
    const hit = lists.get(key);
    let state = await episodeListState(db, feedId, clock.now(), hit?.state.snapshot);
    if (state === 'unchanged' && hit) return hit.list;
    if (!state || state === 'unchanged') throw noShow(feedId);
    if (state.readNow) {
      await firstRead(feedId);
      const after = await episodeListState(db, feedId, clock.now());
      if (after && after !== 'unchanged') state = after;
    }
    if (hit?.state.stamp === state.stamp) {
      hit.state = state;
      return hit.list;
    }
    // Read after the state, so a list is never older than the state it is cached under.
    const show = await findById(db, feedId);
    if (!show) throw noShow(feedId);
    const rows = await newestEpisodes(db, feedId, max + 1);
    const hasMore = rows.length > max;
    const list: EpisodeList = { show, readyCount: state.readyCount, truncated: stopsShort(show, state.total), episodes: rows.slice(0, max), hasMore };
    // A show still unread (its first read failed) is not cached: a request reads it once its backoff has passed.
    if (!state.unread) lists.set(key, { state, list });
    return list;
  }

  return {
    /**
     * @throws DomainError `invalid_request` naming `max`/`after`; `not_found` for an unknown show.
     */
    async list(feedId: bigint, input: EpisodePageInput = {}): Promise<EpisodeList> {
      const max = listLength(input.max, EPISODE_LIST, input.maxField ?? 'max');
      if (!input.query && !input.after) return newest(feedId, max);
      let found = await showWithReadyCount(feedId);
      if (!found) throw noShow(feedId);
      const { show: s } = found;
      if (!s.lastFetchedAt && s.nextFetchAt && s.feedUrl && !s.dead && (s.fetchFailures === 0 || s.nextFetchAt <= clock.now())) {
        await firstRead(feedId);
        found = (await showWithReadyCount(feedId)) ?? found;
      }
      const { show, readyCount } = found;
      let cursor: Prisma.EpisodeWhereUniqueInput | undefined;
      if (input.after) {
        // Only a transcript id can be a cursor; anything else (a NUL the database refuses) is answered without asking it.
        if (!TRANSCRIPT_ID.test(input.after)) throw invalid(input.afterField ?? 'after', NOT_A_CURSOR);
        const from = await db.episode.findUnique({ where: { transcriptId: input.after }, select: { showId: true } });
        if (from?.showId !== feedId) throw invalid(input.afterField ?? 'after', NOT_A_CURSOR);
        cursor = { transcriptId: input.after };
      }
      const rows = (await db.episode.findMany({ ...input.query, where: { showId: feedId }, orderBy: EPISODES_NEWEST_FIRST, take: max + 1, ...(cursor ? { cursor, skip: 1 } : {}) })) as EpisodeRow[];
      const hasMore = rows.length > max;
      // A first page that holds the whole list needs no count: it is within the 1000.
      const counted = input.truncated !== false && !show.truncated && (hasMore || cursor !== undefined);
      const total = counted ? await db.episode.count({ where: { showId: feedId } }) : rows.length;
      return { show, readyCount, truncated: stopsShort(show, total), episodes: rows.slice(0, max), hasMore };
    },
  };
}
