import type { PrismaClient } from '../../../../generated/prisma/client.js';
import type { Logger } from '../../../../infra/logger.js';
import { type IndexedShow, type RankedShow, createNameIndex } from './name-index.js';

export interface NameSearchOptions {
  /** Seconds after which a search first pulls shows changed in the database meanwhile. Default: 15. */
  refreshSeconds: number;
  /** Rows read per statement when loading. Default: 20000. */
  pageSize: number;
}

export interface NameSearchDeps {
  db: PrismaClient;
  log: Logger;
  options?: Partial<NameSearchOptions>;
  /** Told of shows seen to change (search name, popularity or anything a result shows); `null`: all were reloaded. */
  onChanged?: (ids: bigint[] | null) => void;
}

/** id, search_name, popularity, dead. */
type Row = [string, string, number, boolean];

// Rows travel as one JSON value per statement: on the embedded database,
// handing rows over one field at a time costs several times the query itself.
const ROWS_JSON = `coalesce(json_agg(json_build_array(id::text, search_name, popularity, dead) ORDER BY id), '[]')::text`;

// Oldest transaction still running: every change by a transaction from here on
// is picked up by the next pull, whenever it commits.
const HORIZON = `pg_snapshot_xmin(pg_current_snapshot())::text`;

/**
 * Name search over the in-memory index, kept in step with `shows`: loaded in
 * full on the first search, then, at most every `refreshSeconds`, the rows
 * changed since are pulled in the background while searches go on against
 * what is loaded. Changes are found by the writing transaction (a trigger
 * marks it in `search_changed_xid`, indexed; a deleted show's id is kept in
 * `shows_deleted`), not by timestamps, so writers'
 * clocks, late commits and bulk imports from another process cannot slip past. Shows this process adds itself are noted
 * at once. Each API process keeps its own copy, so this works the same on
 * PGlite and on a PostgreSQL shared by several processes.
 */
export function createNameSearch(deps: NameSearchDeps) {
  const { db, log } = deps;
  const opts: NameSearchOptions = { refreshSeconds: 15, pageSize: 20_000, ...deps.options };
  const index = createNameIndex();
  let loading: Promise<void> | null = null;
  let refreshing: Promise<void> | null = null;
  let horizon = 0n;
  let refreshedAt = 0;

  /** Applies shows deleted (`gone`), then rows changed: a row read now exists, whatever was deleted before. */
  function apply(rows: Row[], gone: string[] = []): void {
    for (const id of gone) index.remove(Number(id));
    for (const [id, name, popularity, isDead] of rows) {
      if (isDead) index.remove(Number(id));
      else index.upsert({ id: Number(id), name, popularity });
    }
    const changed = [...gone, ...rows.map(([id]) => id)];
    if (changed.length) deps.onChanged?.(changed.map((id) => BigInt(id)));
  }

  async function loadAll(): Promise<void> {
    refreshedAt = performance.now();
    const [h] = await db.$queryRawUnsafe<{ horizon: string }[]>(`SELECT ${HORIZON} AS horizon`);
    const shows: IndexedShow[] = [];
    // Keyset pages keep each statement short: the embedded database serves every other request meanwhile.
    for (let after = -1n; ; ) {
      const [page] = await db.$queryRawUnsafe<{ rows: string }[]>(
        `SELECT ${ROWS_JSON} AS rows FROM (SELECT * FROM shows WHERE id > $1 AND NOT dead ORDER BY id LIMIT $2) s`,
        after,
        opts.pageSize,
      );
      const rows = JSON.parse(page!.rows) as Row[];
      for (const [id, name, popularity] of rows) shows.push({ id: Number(id), name, popularity });
      if (rows.length < opts.pageSize) break;
      after = BigInt(rows[rows.length - 1]![0]);
    }
    // Built in one go: exact-size posting lists, no growth slack.
    index.build(shows);
    horizon = BigInt(h!.horizon);
    deps.onChanged?.(null);
  }

  async function pullChanges(): Promise<void> {
    refreshedAt = performance.now();
    // Every transaction below the last pull's horizon had finished by then, so
    // its changes were read; rows marked by any later one are read again.
    const [r] = await db.$queryRawUnsafe<{ horizon: string; rows: string; gone: string }[]>(
      `SELECT ${HORIZON} AS horizon, (SELECT ${ROWS_JSON} FROM shows WHERE search_changed_xid >= $1::text::xid8) AS rows,
        (SELECT coalesce(json_agg(id::text), '[]')::text FROM shows_deleted WHERE deleted_xid >= $1::text::xid8) AS gone`,
      horizon.toString(),
    );
    apply(JSON.parse(r!.rows) as Row[], JSON.parse(r!.gone) as string[]);
    horizon = BigInt(r!.horizon);
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
      deps.onChanged?.([show.id]);
      if (!loading) return; // the first load will read it
      if (show.dead) index.remove(Number(show.id));
      else index.upsert({ id: Number(show.id), name: show.searchName, popularity: show.popularity });
    },

    /** Loads every show again. Searches wait for it. */
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

export type NameSearch = ReturnType<typeof createNameSearch>;
