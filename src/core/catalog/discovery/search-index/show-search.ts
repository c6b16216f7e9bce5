import type { PrismaClient } from '../../../../generated/prisma/client.js';
import type { Logger } from '../../../../infra/logger.js';
import { type RankedShow, createShowSearchIndex } from './show-search-index.js';

export interface ShowSearchOptions {
  /** Seconds after which a search first pulls shows changed in the database meanwhile. Default: 10. */
  refreshSeconds: number;
  /** Rows read per statement when loading. Default: 20000. */
  pageSize: number;
}

export interface ShowSearchDeps {
  db: PrismaClient;
  log: Logger;
  options?: Partial<ShowSearchOptions>;
}

type Row = { id: bigint; search_name: string; popularity: number; dead: boolean; updated_at: Date };

// Rows written by a transaction that committed late can carry an updated_at
// older than the newest one already seen; re-reading a margin catches them.
const LATE_COMMIT_MARGIN_MS = 5 * 60_000;

/**
 * Name search over the in-memory index, kept in step with `shows`: loaded
 * in full on the first search, then, at most every `refreshSeconds`, the
 * rows whose `updated_at` moved are pulled in the background while searches
 * go on against what is loaded. Shows this process adds itself are noted at
 * once. Each API process keeps its own copy, so it works the same on PGlite
 * and on a PostgreSQL shared by several processes.
 */
export function createShowSearch(deps: ShowSearchDeps) {
  const { db, log } = deps;
  const opts: ShowSearchOptions = { refreshSeconds: 10, pageSize: 20_000, ...deps.options };
  const index = createShowSearchIndex();
  let loading: Promise<void> | null = null;
  let refreshing: Promise<void> | null = null;
  let watermark = 0;
  let refreshedAt = 0;

  function apply(rows: Row[]): void {
    for (const r of rows) {
      if (r.dead) index.remove(Number(r.id));
      else index.upsert({ id: Number(r.id), name: r.search_name, popularity: Number(r.popularity) });
      watermark = Math.max(watermark, r.updated_at.getTime());
    }
  }

  async function loadAll(): Promise<void> {
    index.clear();
    watermark = 0;
    refreshedAt = performance.now();
    // Keyset pages keep each statement short: the embedded database serves every other request meanwhile.
    for (let after = -1n; ; ) {
      const rows = await db.$queryRawUnsafe<Row[]>(
        `SELECT id, search_name, popularity, dead, updated_at FROM shows WHERE id > $1 AND NOT dead ORDER BY id LIMIT $2`,
        after,
        opts.pageSize,
      );
      apply(rows);
      if (rows.length < opts.pageSize) break;
      after = BigInt(rows[rows.length - 1]!.id);
    }
  }

  async function pullChanges(): Promise<void> {
    refreshedAt = performance.now();
    const rows = await db.$queryRawUnsafe<Row[]>(
      `SELECT id, search_name, popularity, dead, updated_at FROM shows WHERE updated_at >= $1`,
      new Date(watermark - LATE_COMMIT_MARGIN_MS),
    );
    apply(rows);
  }

  function ensureLoaded(): Promise<void> {
    loading ??= loadAll().catch((err) => {
      loading = null;
      throw err;
    });
    return loading;
  }

  return {
    /** Shows searchable now (after the first load). */
    get size(): number {
      return index.size;
    },

    /** The best `limit` shows for a search key, best first. */
    async search(name: string, compact: string, limit: number): Promise<RankedShow[]> {
      await ensureLoaded();
      if (!refreshing && performance.now() - refreshedAt > opts.refreshSeconds * 1000) {
        refreshing = pullChanges()
          .catch((err) => log.warn({ err }, 'search index refresh failed; will retry'))
          .finally(() => {
            refreshing = null;
          });
      }
      return index.search(name, compact, limit);
    },

    /** Takes a show this process just added or changed into the index at once. */
    note(show: { id: bigint; searchName: string; popularity: number; dead: boolean }): void {
      if (!loading) return; // the first load will read it
      if (show.dead) index.remove(Number(show.id));
      else index.upsert({ id: Number(show.id), name: show.searchName, popularity: show.popularity });
    },

    /**
     * Loads every show again, e.g. after a bulk import. Searches wait for it.
     * Also the way to see rows written with an `updated_at` in the past.
     */
    reload(): Promise<void> {
      loading = loadAll().catch((err) => {
        loading = null;
        throw err;
      });
      return loading;
    },

    /** Waits for a background refresh in flight, if any (tests, shutdown). */
    async settle(): Promise<void> {
      await refreshing;
    },
  };
}

export type ShowSearch = ReturnType<typeof createShowSearch>;
