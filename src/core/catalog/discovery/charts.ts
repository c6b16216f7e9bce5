import type { PrismaClient } from '../../../generated/prisma/client.js';
import { invalid } from '../../errors.js';
import type { Links } from '../../links.js';
import { OVERALL_CHART } from '../imports/apple-charts.js';

export interface ChartGenreView {
  slug: string;
  name: string;
}

export interface ChartEntryView {
  rank: number;
  /** Apple's id, as a string (spec 2.11). */
  appleId: string;
  title: string;
  author: string;
  artwork: string;
  /** `GET /shows/lookup?apple_id=…` for this entry. */
  lookupUrl: string;
}

export interface Charts {
  /** The genre shown; null for the overall chart. */
  genre: ChartGenreView | null;
  /** Every genre slug `genre` accepts, by name. */
  genres: ChartGenreView[];
  /** By rank: 100 entries overall, 50 per genre, as last imported. */
  chart: ChartEntryView[];
}

/**
 * The imported Apple top charts (US), overall or per genre.
 * @throws DomainError `invalid_request` naming `genre` and listing the valid slugs for an unknown one.
 */
export async function readCharts(db: PrismaClient, links: Links, genre?: string | null): Promise<Charts> {
  const slug = genre?.trim().toLowerCase() || OVERALL_CHART;
  const genres = await db.chartGenre.findMany({ select: { slug: true, name: true }, orderBy: { name: 'asc' } });
  const chosen = slug === OVERALL_CHART ? null : (genres.find((g) => g.slug === slug) ?? null);
  if (slug !== OVERALL_CHART && !chosen) {
    const valid = genres.map((g) => g.slug);
    throw invalid('genre', `unknown genre "${genre}"; omit it for the overall chart, or use one of: ${valid.length ? valid.join(', ') : '(no genres imported yet)'}`);
  }
  const entries = await db.chartEntry.findMany({ where: { genreSlug: slug }, orderBy: { rank: 'asc' } });
  return {
    genre: chosen,
    genres,
    chart: entries.map((e) => ({
      rank: e.rank,
      appleId: String(e.appleId),
      title: e.title,
      author: e.author,
      artwork: e.artwork,
      lookupUrl: `${links.api}/shows/lookup?apple_id=${e.appleId}`,
    })),
  };
}
