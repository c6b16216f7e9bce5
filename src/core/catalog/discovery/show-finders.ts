import type { Prisma, PrismaClient, Show } from '../../../generated/prisma/client.js';
import type { Links } from '../../links.js';

/** A Prisma `include`/`select` for shows, as a GraphQL resolver passes it through. */
export type ShowQuery = { include?: Prisma.ShowInclude; select?: Prisma.ShowSelect };

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

export function findByFeedUrl(db: PrismaClient, feedUrl: string, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findFirst({ ...query, where: { feedUrl: { in: feedUrlVariants(feedUrl) } } }) as Promise<Show | null>;
}

export function findByAppleId(db: PrismaClient, appleId: bigint, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findUnique({ ...query, where: { appleId } }) as Promise<Show | null>;
}

export function findById(db: PrismaClient, feedId: bigint, query: ShowQuery = {}): Promise<Show | null> {
  return db.show.findUnique({ ...query, where: { id: feedId } }) as Promise<Show | null>;
}

/** Shows by id, in the order of `ids` (missing ones skipped): one query. */
export async function showsInOrder(db: PrismaClient, ids: readonly bigint[], query: ShowQuery = {}): Promise<Show[]> {
  if (!ids.length) return [];
  const rows = (await db.show.findMany({ ...query, where: { id: { in: [...ids] } } })) as Show[];
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
