import { LRUCache } from 'lru-cache';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import { type ShowQuery, type ShowSummaryRow, showsInOrder } from './show-finders.js';

/**
 * Longest a cached summary is trusted, in ms: a bound for changes the search
 * index's pull cannot see (a show deleted when an import merges it). Default: 60000.
 */
const SUMMARY_BACKSTOP_MS = 60_000;

/**
 * The summary rows search answers with, cached by show id: on the embedded
 * database, reading 20 rows cost about half of a search. A row is dropped when
 * the search index pulls a change to it (`forget`, within its refresh
 * interval), so a cached row is never older than the index that found it.
 */
export function createShowSummaries(deps: { db: PrismaClient; max?: number }) {
  const { db } = deps;
  const cache = new LRUCache<bigint, ShowSummaryRow>({ max: deps.max ?? 20_000, ttl: SUMMARY_BACKSTOP_MS });
  // Bumped by every forget: a read that raced one does not cache what it read.
  let forgets = 0;

  return {
    /**
     * Shows by id in the order of `ids`, missing ones skipped. With a Prisma
     * `query` (GraphQL) the rows are read as it asks, uncached.
     */
    async inOrder(ids: readonly bigint[], query?: ShowQuery): Promise<ShowSummaryRow[]> {
      if (query) return showsInOrder(db, ids, query);
      const missing = ids.filter((id) => !cache.has(id));
      if (missing.length === 0) return ids.map((id) => cache.get(id)!);
      const seen = forgets;
      const read = new Map((await showsInOrder(db, missing)).map((r) => [r.id, r]));
      if (seen === forgets) for (const [id, row] of read) cache.set(id, row);
      return ids.flatMap((id) => read.get(id) ?? cache.get(id) ?? []);
    },

    /** Drops the rows of shows that changed; `null`: every row. */
    forget(ids: Iterable<bigint> | null): void {
      forgets++;
      if (ids === null) cache.clear();
      else for (const id of ids) cache.delete(id);
    },
  };
}

export type ShowSummaries = ReturnType<typeof createShowSummaries>;
