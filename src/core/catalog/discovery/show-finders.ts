import type { Prisma, PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Links } from '../../links.js';

/** A Prisma `include`/`select` for shows, as a GraphQL resolver passes it through. */
export type ShowQuery = { include?: Prisma.ShowInclude; select?: Prisma.ShowSelect };

/** What a ShowSummary (spec 2.3, with categories and language) is made of. */
export type ShowSummaryRow = Pick<Show, 'id' | 'title' | 'author' | 'artwork' | 'appleId' | 'indexed' | 'categories' | 'language'>;

/** Page and API addresses of a show (spec 2.3 `url`, `episodes_url`). */
export function showUrls(links: Links, feedId: bigint | number): { url: string; episodesUrl: string } {
  return { url: `${links.site}/shows/${feedId}`, episodesUrl: `${links.api}/shows/${feedId}/episodes` };
}

/**
 * The spellings one feed is commonly given in: http or https, with or
 * without a trailing slash. Directories and people disagree on both.
 */
export function feedUrlVariants(feedUrl: string): string[] {
  let url: URL;
  try {
    url = new URL(feedUrl.trim());
  } catch {
    return [feedUrl];
  }
  url.hash = '';
  const out = new Set<string>();
  for (const protocol of [url.protocol, url.protocol === 'https:' ? 'http:' : 'https:']) {
    const u = new URL(url.href);
    u.protocol = protocol;
    out.add(u.href);
    out.add(u.href.endsWith('/') ? u.href.slice(0, -1) : `${u.href}/`);
  }
  return [...out];
}

/**
 * One key for every spelling {@link feedUrlVariants} lists (the address
 * without its protocol, fragment and trailing slash), or null for what is
 * not a URL.
 * @example feedUrlKey('https://example.com/feed/') === feedUrlKey('http://example.com/feed') // true
 */
export function feedUrlKey(feedUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(feedUrl.trim());
  } catch {
    return null;
  }
  url.hash = '';
  return url.href.slice(url.protocol.length).replace(/\/$/, '');
}

export function findByFeedUrl(db: PrismaClient, feedUrl: string, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findFirst({ ...query, where: { feedUrl: { in: feedUrlVariants(feedUrl) } } }) as Promise<Show | null>;
}

export function findByAppleId(db: PrismaClient, appleId: bigint, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findUnique({ ...query, where: { appleId } }) as Promise<Show | null>;
}

/**
 * Shows that are not anyone's to browse: the shared show of episodes requested
 * by audio URL holds other accounts' guids, titles and private audio addresses.
 */
export const UNBROWSABLE_SOURCES = ['requested'];

/** A show by id; null for an unknown show and for one not to be browsed ({@link UNBROWSABLE_SOURCES}). */
export function findById(db: PrismaClient, feedId: bigint, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findUnique({ ...query, where: { id: feedId, source: { notIn: UNBROWSABLE_SOURCES } } }) as Promise<Show | null>;
}

/**
 * Shows by id, in the order of `ids` (missing ones skipped), in one
 * statement. Without a `query` only the summary columns are read, as one
 * JSON value: on the embedded database, handing rows over one field at a
 * time costs more than the query itself.
 */
export async function showsInOrder(db: PrismaClient, ids: readonly bigint[], query?: ShowQuery): Promise<ShowSummaryRow[]> {
  if (!ids.length) return [];
  const rows = query ? ((await db.show.findMany({ ...query, where: { id: { in: [...ids] } } })) as Show[]) : await summaryRows(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

type SummaryJson = { id: string; title: string; author: string; artwork: string; appleId: string | null; indexed: boolean; categories: string[]; language: string | null };

async function summaryRows(db: PrismaClient, ids: readonly bigint[]): Promise<ShowSummaryRow[]> {
  const [row] = await db.$queryRawUnsafe<{ rows: string }[]>(
    `SELECT coalesce(json_agg(json_build_object('id', id::text, 'title', title, 'author', author, 'artwork', artwork,
       'appleId', apple_id::text, 'indexed', indexed, 'categories', categories, 'language', language)), '[]')::text AS rows
     FROM shows WHERE id = ANY($1::bigint[])`,
    ids.map(String),
  );
  return (JSON.parse(row!.rows) as SummaryJson[]).map((r) => ({ ...r, id: BigInt(r.id), appleId: r.appleId === null ? null : BigInt(r.appleId) }));
}
