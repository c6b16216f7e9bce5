import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Logger } from '../../../infra/logger.js';
import { isUniqueViolation } from '../../transaction.js';
import { isOwnFeedId } from '../ingest/feed-id.js';

/** One show as a directory import or the synthetic seeder hands it over. */
export interface ImportedShow {
  id: number;
  title: string;
  author: string;
  description: string;
  artwork: string;
  language: string | null;
  categories: string[];
  feedUrl: string | null;
  website: string | null;
  appleId: number | null;
  podcastGuid: string | null;
  itunesType: string | null;
  explicit: boolean | null;
  dead: boolean;
  popularity: number;
  searchName: string;
  searchCompact: string;
  newestEpisodeAt: Date | null;
  /** When the refresher should first read the feed; null: never (dead or synthetic). */
  nextFetchAt: Date | null;
  source: string;
}

// A directory row only fills in what our own reading of the feed has not: once a
// show's details have been refreshed from its feed (details_refreshed_at set), the
// feed wins and the import only moves popularity, the dead flag and the schedule.
// `appleId` is the expression for the apple_id column: the row's own, or one that
// yields to a show already holding it.
const upsertShows = (appleId: string) => `
INSERT INTO shows AS s (id, title, author, description, artwork, language, categories, feed_url, website, apple_id,
  podcast_guid, itunes_type, explicit, indexed, dead, source, popularity, search_name, search_compact,
  newest_episode_at, next_fetch_at, created_at, updated_at)
SELECT r.id, r.title, r.author, r.description, r.artwork, r.language, r.categories, r.feed_url, r.website,
  ${appleId},
  r.podcast_guid, r.itunes_type, r.explicit, NOT r.dead AND r.feed_url IS NOT NULL, r.dead, r.source, r.popularity, r.search_name, r.search_compact,
  r.newest_episode_at, r.next_fetch_at, $2, $2
FROM json_to_recordset($1::json) AS r(id bigint, title text, author text, description text, artwork text, language text,
  categories text[], feed_url text, website text, apple_id bigint, podcast_guid text, itunes_type text, explicit boolean,
  dead boolean, source text, popularity real, search_name text, search_compact text, newest_episode_at timestamptz,
  next_fetch_at timestamptz)
ON CONFLICT (id) DO UPDATE SET
  popularity = EXCLUDED.popularity,
  dead = EXCLUDED.dead,
  indexed = NOT EXCLUDED.dead AND COALESCE(EXCLUDED.feed_url, s.feed_url) IS NOT NULL,
  feed_url = COALESCE(EXCLUDED.feed_url, s.feed_url),
  apple_id = COALESCE(s.apple_id, EXCLUDED.apple_id),
  newest_episode_at = GREATEST(s.newest_episode_at, EXCLUDED.newest_episode_at),
  next_fetch_at = CASE WHEN EXCLUDED.dead THEN NULL ELSE COALESCE(s.next_fetch_at, EXCLUDED.next_fetch_at) END,
  title = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.title ELSE s.title END,
  author = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.author ELSE s.author END,
  description = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.description ELSE s.description END,
  artwork = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.artwork ELSE s.artwork END,
  language = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.language ELSE s.language END,
  categories = CASE WHEN s.details_refreshed_at IS NULL OR s.categories = '{}' THEN EXCLUDED.categories ELSE s.categories END,
  website = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.website ELSE s.website END,
  search_name = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.search_name ELSE s.search_name END,
  search_compact = CASE WHEN s.details_refreshed_at IS NULL THEN EXCLUDED.search_compact ELSE s.search_compact END,
  updated_at = EXCLUDED.updated_at
WHERE (s.popularity, s.dead, s.feed_url, s.apple_id, s.newest_episode_at) IS DISTINCT FROM
      (EXCLUDED.popularity, EXCLUDED.dead, COALESCE(EXCLUDED.feed_url, s.feed_url), COALESCE(s.apple_id, EXCLUDED.apple_id),
       GREATEST(s.newest_episode_at, EXCLUDED.newest_episode_at))
   OR (s.details_refreshed_at IS NULL AND
      (s.title, s.author, s.description, s.artwork, s.language, s.categories, s.website) IS DISTINCT FROM
      (EXCLUDED.title, EXCLUDED.author, EXCLUDED.description, EXCLUDED.artwork, EXCLUDED.language, EXCLUDED.categories,
       EXCLUDED.website))`;

const UPSERT_SHOWS = upsertShows('r.apple_id');
const UPSERT_SHOWS_YIELDING = upsertShows(
  'CASE WHEN EXISTS (SELECT 1 FROM shows o WHERE o.apple_id = r.apple_id AND o.id <> r.id) THEN NULL ELSE r.apple_id END',
);

const SHOW_COLUMNS = `title, author, description, artwork, language, categories, website, podcast_guid, itunes_type,
  explicit, indexed, dead, source, popularity, search_name, search_compact, episode_count_tracked, newest_episode_at,
  truncated, etag, last_modified, last_fetched_at, next_fetch_at, details_refreshed_at, fetch_failures, last_error,
  created_at, updated_at`;

/**
 * Moves a show Podtext added under its own id to the directory's id for the
 * same feed URL, episodes and all. Fails (and changes nothing) when something
 * else still points at the old id.
 */
async function moveToDirectoryId(db: PrismaClient, ownId: bigint, directoryId: bigint): Promise<void> {
  await db.$transaction(async (tx) => {
    const [own] = await tx.$queryRawUnsafe<{ feed_url: string; apple_id: bigint | null }[]>(
      `SELECT feed_url, apple_id FROM shows WHERE id = $1 FOR UPDATE`,
      ownId,
    );
    await tx.$executeRawUnsafe(`UPDATE shows SET feed_url = NULL, apple_id = NULL WHERE id = $1`, ownId);
    await tx.$executeRawUnsafe(
      `INSERT INTO shows (id, feed_url, apple_id, ${SHOW_COLUMNS}) SELECT $2, $3, $4, ${SHOW_COLUMNS} FROM shows WHERE id = $1
       ON CONFLICT (id) DO UPDATE SET feed_url = EXCLUDED.feed_url`,
      ownId,
      directoryId,
      own.feed_url,
      own.apple_id,
    );
    await tx.$executeRawUnsafe(`UPDATE episodes SET show_id = $2 WHERE show_id = $1`, ownId, directoryId);
    await tx.$executeRawUnsafe(`UPDATE publisher_transcript_fetches SET show_id = $2 WHERE show_id = $1`, ownId, directoryId);
    await tx.$executeRawUnsafe(`DELETE FROM shows WHERE id = $1`, ownId);
  });
}

/**
 * Hands each feed URL of the batch to the row that carries it. A show added
 * earlier under Podtext's own id moves to the directory id; a directory show
 * that used to have the URL gives it up (the newer dump wins).
 * @returns the ids of rows that must be written without their URL.
 */
async function settleFeedUrls(db: PrismaClient, rows: readonly ImportedShow[], log?: Logger): Promise<Set<number>> {
  const withUrl = rows.filter((r) => r.feedUrl).map((r) => ({ id: r.id, feed_url: r.feedUrl }));
  const taken = await db.$queryRawUnsafe<{ holder: bigint; id: bigint }[]>(
    `SELECT s.id AS holder, r.id FROM json_to_recordset($1::json) AS r(id bigint, feed_url text)
     JOIN shows s ON s.feed_url = r.feed_url WHERE s.id <> r.id`,
    JSON.stringify(withUrl),
  );
  const without = new Set<number>();
  for (const { holder, id } of taken) {
    if (isOwnFeedId(BigInt(holder))) {
      try {
        await moveToDirectoryId(db, BigInt(holder), BigInt(id));
        continue;
      } catch (err) {
        log?.warn({ feedId: String(holder), directoryId: String(id), err: (err as Error).message }, 'show kept under its own id');
        without.add(Number(id));
        continue;
      }
    }
    await db.$executeRawUnsafe(`UPDATE shows SET feed_url = NULL WHERE id = $1`, holder);
  }
  return without;
}

function batchJson(rows: readonly ImportedShow[], withoutUrl: ReadonlySet<number> = new Set()): string {
  return JSON.stringify(
    rows.map((r) => ({
      id: r.id, title: r.title, author: r.author, description: r.description, artwork: r.artwork, language: r.language,
      categories: r.categories, feed_url: withoutUrl.has(r.id) ? null : r.feedUrl, website: r.website, apple_id: r.appleId,
      podcast_guid: r.podcastGuid, itunes_type: r.itunesType, explicit: r.explicit, dead: r.dead, source: r.source,
      popularity: r.popularity, search_name: r.searchName, search_compact: r.searchCompact,
      newest_episode_at: r.newestEpisodeAt, next_fetch_at: r.dead ? null : r.nextFetchAt,
    })),
  );
}

/**
 * The rules a batch applies to itself before it is written: one row per id
 * (the last one read, in the place of the first), and a feed URL or an Apple
 * id kept only by the first row carrying it. Pure; settling twice changes
 * nothing.
 */
export function settleWithinBatch(batch: readonly ImportedShow[]): ImportedShow[] {
  const byId = new Map<number, ImportedShow>();
  for (const row of batch) byId.set(row.id, row);
  const urls = new Set<string>();
  const appleIds = new Set<number>();
  return [...byId.values()].map((row) => {
    const feedUrl = row.feedUrl && !urls.has(row.feedUrl) ? row.feedUrl : null;
    const appleId = row.appleId && !appleIds.has(row.appleId) ? row.appleId : null;
    if (feedUrl) urls.add(feedUrl);
    if (appleId) appleIds.add(appleId);
    return feedUrl === row.feedUrl && appleId === row.appleId ? row : { ...row, feedUrl, appleId };
  });
}

/**
 * Upserts a batch of shows in one statement. Within the batch, the first row
 * wins a feed URL or an Apple id. Only when that statement trips over a show
 * elsewhere holding one of the batch's feed URLs or Apple ids (rare: a new
 * dump, or a feed added by hand earlier) does the slower path run, which hands
 * feed URLs over and lets a row yield an Apple id already taken. Idempotent:
 * writing the same rows again changes nothing.
 */
export async function writeShowBatch(db: PrismaClient, batch: readonly ImportedShow[], now: Date, log?: Logger): Promise<void> {
  const rows = settleWithinBatch(batch);
  try {
    await db.$executeRawUnsafe(UPSERT_SHOWS, batchJson(rows), now);
    return;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
  }
  const withoutUrl = await settleFeedUrls(db, rows, log);
  await db.$executeRawUnsafe(UPSERT_SHOWS_YIELDING, batchJson(rows, withoutUrl), now);
}
