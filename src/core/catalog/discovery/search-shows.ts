import type { PrismaClient } from '../../../generated/prisma/client.js';
import { DomainError, invalid } from '../../errors.js';
import type { CatalogIngest } from '../ingest/catalog-ingest.js';
import { searchKey } from '../ingest/search-key.js';
import type { DirectoryTarget } from './directory-links.js';
import { SEARCH_LIMIT, searchQuery } from './discovery-input.js';
import { queryKind } from './query-kind.js';
import type { NameSearch } from './search-index/name-search.js';
import { type ShowQuery, type ShowSummaryRow, findByAppleId, findByFeedUrl, findById } from './show-finders.js';
import type { ShowSummaries } from './show-summaries.js';

export interface SearchResult {
  /** The query as given, trimmed. */
  query: string;
  /** Best first; at most {@link SEARCH_LIMIT}. Whole rows (or what `query` selects) when a `query` is given. */
  shows: ShowSummaryRow[];
}

export interface SearchDeps {
  db: PrismaClient;
  catalogIngest: Pick<CatalogIngest, 'addFeedByUrl' | 'addFeedByAppleId'>;
  showSearch: NameSearch;
  summaries: ShowSummaries;
}

/** The error for a link Podtext cannot turn into a show, saying why and what works instead. */
export function unsupportedLink(field: string, what: string, why: string): DomainError {
  return new DomainError(
    'unsupported_link',
    `${field}: ${what} cannot be resolved: ${why}. Search by the show's name instead, or use its RSS feed URL or Apple Podcasts link.`,
    { field },
  );
}

/**
 * A feed that cannot be added (refused address, not a feed, its server down)
 * answers 400 naming `q`, the status the spec gives a bad search query; the
 * reason stays in the message. A directory that cannot be asked (Apple's
 * lookup down) is no fault of the query: 502 `upstream_failed`, to try again.
 */
function asQueryError(err: unknown): unknown {
  if (!(err instanceof DomainError) || (err.code !== 'upstream_failed' && err.code !== 'invalid_request')) return err;
  const message = `q: ${err.message.replace(/^[a-z_]+: /, '')}`;
  if (err.code === 'upstream_failed' && err.details?.field === 'apple_id') return new DomainError('upstream_failed', message, { field: 'q' });
  return new DomainError('invalid_request', message, { field: 'q' });
}

export function streamingLinkError(field: string, service: string): DomainError {
  return unsupportedLink(field, `${service} links`, `${service} is a streaming service and does not publish the show's RSS feed`);
}

/**
 * Shows for a query: a name (fuzzy, typo-tolerant, ranked by relevance and
 * popularity), a podcast-directory link (resolved through the Apple id, the
 * Podcast Index id or the feed URL it carries), or an RSS feed URL (added on
 * the spot when the index lacks it). Streaming-service links are refused
 * with `unsupported_link`.
 */
export function createShowSearchFlow(deps: SearchDeps) {
  const { db, catalogIngest, showSearch, summaries } = deps;

  async function byFeedUrl(feedUrl: string, query: ShowQuery | undefined): Promise<ShowSummaryRow[]> {
    const known = await findByFeedUrl(db, feedUrl, query);
    if (known) return [known];
    const { feedId } = await catalogIngest.addFeedByUrl(feedUrl).catch((err: unknown) => {
      throw asQueryError(err);
    });
    const added = await findById(db, feedId, query);
    if (!added) return [];
    showSearch.note(added);
    return [added];
  }

  async function byAppleId(appleId: bigint, query: ShowQuery | undefined): Promise<ShowSummaryRow[]> {
    const known = await findByAppleId(db, appleId, query);
    if (known) return [known];
    try {
      const { feedId } = await catalogIngest.addFeedByAppleId(appleId);
      const added = await findById(db, feedId, query);
      if (added) showSearch.note(added);
      return added ? [added] : [];
    } catch (err) {
      // Neither the Podcast Index nor Apple knows a feed for it: no show, not an error.
      if (err instanceof DomainError && err.code === 'not_found') return [];
      throw asQueryError(err);
    }
  }

  async function byDirectory(target: DirectoryTarget, query: ShowQuery | undefined): Promise<ShowSummaryRow[]> {
    switch (target.kind) {
      case 'apple':
        return byAppleId(target.appleId, query);
      case 'feed_id': {
        const show = await findById(db, target.feedId, query);
        return show ? [show] : [];
      }
      case 'feed_url':
        return byFeedUrl(target.feedUrl, query);
      case 'unresolvable':
        throw unsupportedLink('q', `This ${target.directory} link`, target.hint);
    }
  }

  async function byName(text: string, query: ShowQuery | undefined): Promise<ShowSummaryRow[]> {
    const key = searchKey(text);
    if (!key.name) throw invalid('q', 'has no letters or digits to search for');
    const ranked = await showSearch.search(key.name, key.compact, SEARCH_LIMIT);
    return summaries.inOrder(ranked.map((r) => BigInt(r.id)), query);
  }

  return {
    /**
     * @param query Prisma include passed through by GraphQL so relations load in the same round trip.
     * @throws DomainError `invalid_request` naming `q` (also for a feed that cannot be added, with the reason);
     *   `unsupported_link` for streaming or unresolvable links.
     */
    async search(q: string, query?: ShowQuery): Promise<SearchResult> {
      const text = searchQuery(q);
      const kind = queryKind(text);
      switch (kind.kind) {
        case 'streaming':
          throw streamingLinkError('q', kind.service);
        case 'directory':
          return { query: text, shows: await byDirectory(kind.target, query) };
        case 'feed':
          return { query: text, shows: await byFeedUrl(kind.feedUrl, query) };
        case 'name':
          return { query: text, shows: await byName(text, query) };
      }
    },
  };
}
