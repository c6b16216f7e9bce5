import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import { type Clock, systemClock } from '../../clock.js';
import { APPLE_GENRE_IDS, genreSlug } from './apple-categories.js';
import { OVERALL_CHART, importCharts } from './apple-charts.js';

/** Where Apple publishes its US podcast charts. */
export interface ChartSources {
  /** The overall top 100 (current marketing-tools JSON). */
  overall: string;
  /** A genre's top 50, `{genre}` standing for Apple's genre id (legacy iTunes RSS JSON). */
  genre: string;
}

export const APPLE_CHART_SOURCES: ChartSources = {
  overall: 'https://rss.marketingtools.apple.com/api/v2/us/podcasts/top/100/podcasts.json',
  genre: 'https://itunes.apple.com/us/rss/toppodcasts/limit=50/genre={genre}/json',
};

export interface ChartRefreshResult {
  /** Slugs of the charts imported, `overall` first. */
  imported: string[];
  /** Charts that could not be read, with why. */
  failed: { genre: string; error: string }[];
}

/**
 * Imports today's charts: the overall one, then one per genre whose Apple id
 * is known (the top-level ones, and sub-genres earlier charts revealed). A
 * genre that fails is skipped and reported; a failing overall chart stops the
 * pass (Apple is likely unreachable) by throwing.
 */
export async function refreshCharts(
  db: PrismaClient,
  outbound: OutboundClient,
  sources: ChartSources,
  options: { clock?: Clock } = {},
): Promise<ChartRefreshResult> {
  const clock = options.clock ?? systemClock;
  await importCharts(db, sources.overall, { outbound, genre: OVERALL_CHART, clock });
  const result: ChartRefreshResult = { imported: [OVERALL_CHART], failed: [] };
  const genres = new Map(Object.entries(APPLE_GENRE_IDS).map(([name, id]) => [genreSlug(name), id]));
  for (const g of await db.chartGenre.findMany({ where: { appleGenreId: { not: null } }, orderBy: { slug: 'asc' } })) {
    if (!genres.has(g.slug)) genres.set(g.slug, g.appleGenreId!);
  }
  for (const [slug, id] of genres) {
    try {
      await importCharts(db, sources.genre.replaceAll('{genre}', String(id)), { outbound, genre: slug, clock });
      result.imported.push(slug);
    } catch (err) {
      result.failed.push({ genre: slug, error: (err as Error).message });
    }
  }
  return result;
}

/** When the overall chart was last imported, if ever. */
export async function chartsFetchedAt(db: PrismaClient): Promise<Date | null> {
  const newest = await db.chartEntry.findFirst({ where: { genreSlug: OVERALL_CHART }, orderBy: { fetchedAt: 'desc' }, select: { fetchedAt: true } });
  return newest?.fetchedAt ?? null;
}
