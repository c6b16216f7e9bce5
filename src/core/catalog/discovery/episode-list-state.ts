import type { PrismaClient } from '../../../generated/prisma/client.js';

/** A show's episode list as it stands, in one cheap statement. */
export interface EpisodeListState {
  /** The database snapshot the state was read in (`pg_current_snapshot()`). */
  snapshot: string;
  /**
   * Changes whenever the show's row or any of its episode rows is written,
   * added, moved or deleted, by whatever code: it is made of each row
   * version's physical address and writing transaction (`ctid`, `xmin`),
   * which PostgreSQL renews on every write, summed as 32-bit hashes with the
   * row count. Equal stamps, equal lists, but for a one in 2^32 collision
   * per change.
   */
  stamp: string;
  readyCount: number;
  /** Episodes the index holds for the show. */
  total: number;
  /** Whether the show has never been read, though scheduled to be. */
  unread: boolean;
  /** Unread, and to be read on this request: never tried, or its backoff after a failed read has passed. */
  readNow: boolean;
}

type StateJson = { show_version: string; unread: boolean; read_now: boolean; ready: number; total: number; versions: number };

/**
 * The state of `feedId`'s list, or null for an unknown show. `unchanged`
 * when the database snapshot is still `since`: no transaction has committed
 * since that state was read, so nothing can differ; that check is a trivial
 * statement (half a millisecond on the embedded database). Otherwise the
 * episodes are scanned: about a millisecond for a thousand, where reading
 * the list itself takes several.
 */
export async function episodeListState(db: PrismaClient, feedId: bigint, now: Date, since?: string): Promise<EpisodeListState | 'unchanged' | null> {
  if (since !== undefined) {
    const [now] = await db.$queryRawUnsafe<{ snapshot: string }[]>('SELECT pg_current_snapshot()::text AS snapshot');
    if (now!.snapshot === since) return 'unchanged';
  }
  const [row] = await db.$queryRawUnsafe<{ snapshot: string; state: StateJson | null }[]>(
    `SELECT pg_current_snapshot()::text AS snapshot, (
       SELECT json_build_object('show_version', s.ctid::text || s.xmin::text,
         'unread', s.last_fetched_at IS NULL AND s.next_fetch_at IS NOT NULL AND s.feed_url IS NOT NULL AND NOT s.dead,
         'read_now', s.last_fetched_at IS NULL AND s.next_fetch_at IS NOT NULL AND s.feed_url IS NOT NULL AND NOT s.dead AND (s.fetch_failures = 0 OR s.next_fetch_at <= $2),
         'ready', e.ready, 'total', e.total, 'versions', e.versions)
       FROM shows s CROSS JOIN LATERAL (
         SELECT count(*) FILTER (WHERE transcript_status = 'ready') AS ready, count(*) AS total,
           coalesce(sum(hashtext(ctid::text || xmin::text)), 0) AS versions
         FROM episodes WHERE show_id = s.id) e
       WHERE s.id = $1) AS state`,
    feedId,
    now,
  );
  const { snapshot, state } = row!;
  if (!state) return null;
  return { snapshot, stamp: `${state.show_version}:${state.total}:${state.versions}`, readyCount: state.ready, total: state.total, unread: state.unread, readNow: state.read_now };
}
