import { readFile } from 'node:fs/promises';
import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { OutboundClient } from '../../../infra/outbound/outbound-client.js';
import { type Clock, systemClock } from '../../clock.js';
import { DomainError, invalid } from '../../errors.js';
import { APPLE_CATEGORIES, type AppleCategory, genreSlug } from './apple-categories.js';

/** `chart_entries.genre_slug` of the overall chart (every genre). */
export const OVERALL_CHART = 'overall';

/** Entries kept: the overall chart has 100, a genre chart 50. */
export const CHART_LENGTH = { overall: 100, genre: 50 } as const;

/** Apple's catch-all genre id ("Podcasts"), which names no genre of its own. */
const PODCASTS_GENRE_ID = 26;

interface ChartEntryIn {
  appleId: bigint;
  title: string;
  author: string;
  artwork: string;
}

interface ParsedChart {
  entries: ChartEntryIn[];
  /** Genre named by the document itself (legacy title "Top Podcasts in Music", or a genre id in its own URL). */
  genreName: string | null;
  genreId: number | null;
  /** Genre ids and names seen on entries, so chart_genres learns Apple's ids. */
  seenGenres: { id: number; name: string }[];
}

type Labelled = { label?: string; attributes?: Record<string, string> };
type LegacyEntry = Record<string, Labelled | Labelled[] | undefined>;
type CurrentResult = { id?: string; name?: string; artistName?: string; artworkUrl100?: string; genres?: { genreId?: string; name?: string }[] };

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const label = (v: Labelled | Labelled[] | undefined): string => (Array.isArray(v) ? '' : (v?.label ?? '')).trim();

/** An entry's Apple id; 0 (left out of the chart) for anything but a positive decimal number. */
function appleIdOf(raw: unknown): bigint {
  const text = typeof raw === 'number' ? String(raw) : typeof raw === 'string' ? raw.trim() : '';
  return /^\d{1,18}$/.test(text) ? BigInt(text) : 0n;
}

function genreIdIn(url: string | undefined): number | null {
  const match = /genre[=/](\d+)/.exec(url ?? '');
  return match ? Number(match[1]) : null;
}

/** Reads the legacy iTunes RSS JSON (`feed.entry`) or the current marketing-tools JSON (`feed.results`). */
export function parseChart(body: unknown): ParsedChart {
  const feed = (body as { feed?: Record<string, unknown> })?.feed;
  if (feed && 'entry' in feed) {
    const entries = asArray(feed.entry as LegacyEntry | LegacyEntry[]);
    const self = asArray(feed.link as Labelled | Labelled[]).find((l) => l.attributes?.rel === 'self')?.attributes?.href;
    const title = label(feed.title as Labelled);
    return {
      entries: entries.map((e) => {
        const images = asArray(e['im:image']).sort((a, b) => Number(b.attributes?.height ?? 0) - Number(a.attributes?.height ?? 0));
        return {
          appleId: appleIdOf((e.id as Labelled | undefined)?.attributes?.['im:id']),
          title: label(e['im:name']),
          author: label(e['im:artist']),
          artwork: images[0]?.label ?? '',
        };
      }),
      genreName: /Top Podcasts in (.+)$/i.exec(title)?.[1]?.trim() ?? null,
      genreId: genreIdIn(self ?? label(feed.id as Labelled)),
      seenGenres: entries.flatMap((e) => {
        const a = (e.category as Labelled | undefined)?.attributes;
        return a?.['im:id'] && a.label ? [{ id: Number(a['im:id']), name: a.label }] : [];
      }),
    };
  }
  if (feed && Array.isArray(feed.results)) {
    const results = feed.results as CurrentResult[];
    const links = asArray(feed.links as Record<string, string> | Record<string, string>[]);
    return {
      entries: results.map((r) => ({ appleId: appleIdOf(r.id), title: r.name ?? '', author: r.artistName ?? '', artwork: r.artworkUrl100 ?? '' })),
      genreName: null,
      genreId: genreIdIn((feed.id as string | undefined) ?? links.find((l) => l.self)?.self),
      seenGenres: results.flatMap((r) => (r.genres ?? []).flatMap((g) => (g.genreId && g.name ? [{ id: Number(g.genreId), name: g.name }] : []))),
    };
  }
  throw invalid('source', 'not an Apple chart (neither feed.entry nor feed.results)');
}

/**
 * Writes the genre list (top categories and sub-categories) into
 * chart_genres with their slugs. Idempotent; ids learnt from charts stay.
 * @returns the number of genres.
 */
export async function importChartGenres(db: PrismaClient, tree: readonly AppleCategory[] = APPLE_CATEGORIES): Promise<number> {
  const names = [...new Set(tree.flatMap((c) => [c.category, ...c.subcategories]))];
  const rows = names.map((name) => ({ slug: genreSlug(name), name }));
  await db.$executeRawUnsafe(
    `INSERT INTO chart_genres (slug, name) SELECT r.slug, r.name FROM json_to_recordset($1::json) AS r(slug text, name text)
     ON CONFLICT (slug) DO UPDATE SET name = EXCLUDED.name`,
    JSON.stringify(rows),
  );
  return rows.length;
}

async function readSource(source: string, outbound?: OutboundClient): Promise<unknown> {
  if (!/^https?:\/\//i.test(source)) return JSON.parse(await readFile(source, 'utf8'));
  if (!outbound) throw new Error('importing a chart from a URL needs the outbound client');
  let res;
  try {
    res = await outbound.request(source, { headers: { accept: 'application/json' }, maxBytes: 10 * 1024 * 1024, timeoutMs: 30_000 });
  } catch (err) {
    throw new DomainError('upstream_failed', `source: the chart could not be fetched (${(err as Error).message})`);
  }
  if (res.status !== 200) throw new DomainError('upstream_failed', `source: the chart server answered ${res.status}`);
  return JSON.parse(res.body.toString('utf8'));
}

/**
 * Imports an Apple top-podcasts chart from a file or an http(s) URL (fetched
 * through the guarded client): the legacy iTunes RSS JSON or the current
 * marketing-tools JSON. The genre is `options.genre` when given (a slug or
 * {@link OVERALL_CHART}), else the one the document names, else the overall
 * chart. The chart's entries are replaced: 100 for the overall chart, 50 for
 * a genre, each show once; entries without a usable Apple id are left out, and
 * a chart with none is refused (the one stored stays). The genre list is written first, and Apple genre ids seen in the
 * chart are recorded on their genres.
 *
 * @example await importCharts(db, 'https://rss.marketingtools.apple.com/api/v2/us/podcasts/top/100/podcasts.json', { outbound })
 */
export async function importCharts(
  db: PrismaClient,
  source: string,
  options: { outbound?: OutboundClient; genre?: string; clock?: Clock } = {},
): Promise<{ genre: string; entries: number }> {
  const clock = options.clock ?? systemClock;
  const chart = parseChart(await readSource(source, options.outbound));
  // Entries without a usable Apple id, and a show listed again, are left out.
  const seen = new Set<bigint>();
  const usable = chart.entries.filter((e) => e.appleId > 0n && !seen.has(e.appleId) && seen.add(e.appleId));
  // An empty answer is a glitch of Apple's, not an empty chart: yesterday's stays.
  if (usable.length === 0) throw invalid('source', 'the chart lists no podcasts; the chart Podtext has is kept');
  await importChartGenres(db);
  const learnt = [...chart.seenGenres, ...(chart.genreId && chart.genreName ? [{ id: chart.genreId, name: chart.genreName }] : [])];
  for (const g of learnt.filter((g) => g.id !== PODCASTS_GENRE_ID)) {
    await db.chartGenre.updateMany({ where: { slug: genreSlug(g.name) }, data: { appleGenreId: g.id } });
  }

  let genre = options.genre ?? null;
  const byId = genre === null && chart.genreId && chart.genreId !== PODCASTS_GENRE_ID
    ? await db.chartGenre.findFirst({ where: { appleGenreId: chart.genreId } })
    : null;
  genre ??= byId?.slug ?? (chart.genreName ? genreSlug(chart.genreName) : OVERALL_CHART);
  if (genre !== OVERALL_CHART && !(await db.chartGenre.findUnique({ where: { slug: genre } }))) {
    if (!chart.genreName || genreSlug(chart.genreName) !== genre) throw invalid('genre', `no genre "${genre}"`);
    await db.chartGenre.create({ data: { slug: genre, name: chart.genreName, appleGenreId: chart.genreId } });
  }

  const limit = genre === OVERALL_CHART ? CHART_LENGTH.overall : CHART_LENGTH.genre;
  const now = clock.now();
  const entries = usable.slice(0, limit);
  await db.$transaction([
    db.chartEntry.deleteMany({ where: { genreSlug: genre } }),
    db.chartEntry.createMany({ data: entries.map((e, i) => ({ genreSlug: genre, rank: i + 1, ...e, fetchedAt: now })) }),
  ]);
  return { genre, entries: entries.length };
}
