import type { PrismaClient } from '../../../generated/prisma/client.js';
import { feedUrlKey } from '../discovery/show-finders.js';
import { OWN_FEED_ID_START } from '../ingest/feed-id.js';
import { isUniqueViolation } from '../../transaction.js';

/** Shows Podtext added under its own id, by {@link feedUrlKey} of their feed URL. */
export type OwnFeedSpellings = Map<string, { id: bigint; feedUrl: string }>;

/**
 * The feeds of shows added under Podtext's own id (a feed added by URL),
 * read once per import: there are few of them next to a directory's rows.
 */
export async function ownFeedSpellings(db: PrismaClient): Promise<OwnFeedSpellings> {
  const rows = await db.$queryRawUnsafe<{ id: bigint; feed_url: string }[]>(
    `SELECT id, feed_url FROM shows WHERE id >= $1 AND feed_url IS NOT NULL`,
    OWN_FEED_ID_START,
  );
  const out: OwnFeedSpellings = new Map();
  for (const r of rows) {
    const key = feedUrlKey(r.feed_url);
    if (key) out.set(key, { id: BigInt(r.id), feedUrl: r.feed_url });
  }
  return out;
}

/**
 * Gives a show of Podtext's own id the directory's spelling of its feed URL
 * when a directory row names the same feed otherwise (http for https, a
 * trailing slash), so that the row's write meets it as the same feed and
 * moves it to the directory's id, episodes and all, instead of adding an
 * empty second show for the feed. A spelling another show already holds is
 * left to the write's own rules.
 */
export async function adoptDirectorySpellings(db: PrismaClient, feedUrls: readonly string[], own: OwnFeedSpellings): Promise<void> {
  if (own.size === 0) return;
  for (const url of feedUrls) {
    const key = feedUrlKey(url);
    const holder = key === null ? undefined : own.get(key);
    if (!holder || holder.feedUrl === url) continue;
    try {
      // A show already moved by an earlier batch is no longer there: nothing to update.
      await db.$executeRawUnsafe(`UPDATE shows SET feed_url = $2 WHERE id = $1`, holder.id, url);
      own.set(key!, { id: holder.id, feedUrl: url });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
    }
  }
}
