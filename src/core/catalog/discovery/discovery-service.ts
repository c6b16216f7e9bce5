import type { PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import type { Actor } from '../../accounts/actor.js';
import type { Clock } from '../../clock.js';
import { notFound } from '../../errors.js';
import type { Links } from '../../links.js';
import type { CatalogIngest } from '../ingest/catalog-ingest.js';
import { type Charts, readCharts } from './charts.js';
import { parseFeedId } from './discovery-input.js';
import { createEpisodeInfo, type EpisodeInfo } from './episode-info.js';
import { createEpisodeLister, type EpisodeList, type EpisodePageInput } from './episode-list.js';
import { type LookupInput, lookupShow } from './lookup-show.js';
import { createNameSearch, type NameSearchOptions } from './search-index/name-search.js';
import { createShowSearchFlow, type SearchResult } from './search-shows.js';
import { type ShowQuery, findById, showsInOrder } from './show-finders.js';
import { createShowSummaries } from './show-summaries.js';
import { computeTrending, type Trending, type TrendingInput } from './trending.js';

export interface DiscoveryOptions extends NameSearchOptions {
  /** How long a trending list is reused, in seconds. Default: 60. */
  trendingCacheSeconds: number;
}

export interface DiscoveryDeps {
  db: PrismaClient;
  links: Links;
  catalogIngest: Pick<CatalogIngest, 'addFeedByUrl' | 'addFeedByAppleId' | 'refreshShow'>;
  clock: Clock;
  log: Logger;
  /** The public sample episode: unlocked for everyone, `unlock_cost` 0. */
  sampleTranscriptId: string;
  options?: Partial<DiscoveryOptions>;
}

/**
 * Discovery (spec 4.2, 0 credits): search, lookup, show details, episode
 * lists, episode info, charts and trending, over Podtext's own copy of the
 * directory. Every verb that can load shows or episodes takes an optional
 * Prisma `query`, which GraphQL passes through so nested fields load in the
 * same round trip.
 */
export function createDiscovery(deps: DiscoveryDeps) {
  const { db, links, clock, log } = deps;
  const summaries = createShowSummaries({ db });
  const showSearch = createNameSearch({ db, log, options: deps.options, onChanged: summaries.forget });
  const flow = createShowSearchFlow({ db, catalogIngest: deps.catalogIngest, showSearch, summaries });
  const lister = createEpisodeLister({ db, catalogIngest: deps.catalogIngest, clock, log });
  const infos = createEpisodeInfo({ db, sampleTranscriptId: deps.sampleTranscriptId });
  const trendingTtlMs = (deps.options?.trendingCacheSeconds ?? 60) * 1000;
  const trendingCache = new Map<string, { at: number; categories: string[]; ids: bigint[] }>();

  return {
    /** The name index; `reload()` after a bulk import makes new shows searchable at once. */
    showSearch,

    /** Spec 4.2 `GET /search`. */
    search: (_actor: Actor | null, q: string, query?: ShowQuery): Promise<SearchResult> => flow.search(q, query),

    /** Spec 4.2 `GET /shows/lookup`; see `LOOKUP_PRECEDENCE`. */
    lookup: (_actor: Actor, input: LookupInput, query?: ShowQuery): Promise<Show> => lookupShow(db, input, query),

    /**
     * Spec 4.2 `GET /shows/{feed_id}`.
     * @throws DomainError `invalid_request` naming `feed_id`; `not_found`.
     */
    async show(feedId: string | number | bigint, query?: ShowQuery): Promise<Show> {
      const id = parseFeedId(feedId);
      const show = await findById(db, id, query);
      if (!show) throw notFound('feed_id', `no show ${id} in the index`);
      return show;
    },

    /**
     * Spec 4.2 `GET /shows/{feed_id}/episodes`: newest first, `max` 1..1000 (default 100).
     * @throws DomainError `invalid_request` naming `feed_id` or `max`; `not_found`.
     */
    episodes: (_actor: Actor | null, feedId: string | number | bigint, input: EpisodePageInput = {}): Promise<EpisodeList> =>
      lister.list(parseFeedId(feedId), input),

    /** Spec 4.2 `GET /episodes/{transcript_id}` for the calling account. */
    episode: (actor: Actor, transcriptId: string): Promise<EpisodeInfo> => infos.info(actor, transcriptId),

    /** Episode and show titles of known transcript ids, for lists that hold only ids (the account's unlocks). */
    async titles(transcriptIds: readonly string[]): Promise<Map<string, { title: string; showTitle: string }>> {
      const rows = await db.episode.findMany({
        where: { transcriptId: { in: [...transcriptIds] } },
        select: { transcriptId: true, title: true, show: { select: { title: true } } },
      });
      return new Map(rows.map((r) => [r.transcriptId, { title: r.title, showTitle: r.show.title }]));
    },

    /** Spec 4.2 `GET /charts`. */
    charts: (genre?: string | null): Promise<Charts> => readCharts(db, links, genre),

    /** Spec 4.2 `GET /trending`; the formula is `TRENDING_DOCS`. */
    async trending(input: TrendingInput, query?: ShowQuery): Promise<Trending> {
      const key = JSON.stringify([input.lang ?? null, input.category?.trim().toLowerCase() ?? null, input.max ?? null]);
      const hit = trendingCache.get(key);
      if (hit && performance.now() - hit.at < trendingTtlMs) {
        return { categories: hit.categories, shows: await showsInOrder(db, hit.ids, query) };
      }
      const result = await computeTrending(db, clock, input, query);
      if (trendingCache.size > 500) trendingCache.clear();
      trendingCache.set(key, { at: performance.now(), categories: result.categories, ids: result.shows.map((s) => s.id) });
      return result;
    },
  };
}

export type Discovery = ReturnType<typeof createDiscovery>;
