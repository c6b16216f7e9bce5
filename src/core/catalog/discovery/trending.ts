import type { PrismaClient } from '../../../generated/prisma/client.js';
import type { Clock } from '../../clock.js';
import { invalid } from '../../errors.js';
import { TRENDING_DEFAULT_LANG, TRENDING_LIST, listLength } from './discovery-input.js';
import { type ShowQuery, type ShowSummaryRow, UNBROWSABLE_SOURCES, showsInOrder } from './show-finders.js';

/** The trending formula in words, quoted by the API description and the README. */
export const TRENDING_DOCS =
  'Trending is computed from Podtext\'s own data over the last 7 days, per show: ' +
  '`score = 2·ln(1 + unlocks) + 2·ln(1 + requests) + ln(1 + min(new_episodes, 7)) + 1.5·pop`, ' +
  'where `unlocks` counts episodes of the show unlocked by any account, `requests` its episodes asked for in transcription requests, ' +
  '`new_episodes` its episodes published, and `pop = min(1, ln(1 + popularity) / ln(31))` is the directory popularity (0..30) as a prior, ' +
  'so that a quiet week still lists well-known shows. Ties go to the more popular show. `lang` matches the show\'s language tag by prefix ' +
  '(`en` takes `en-us`); `all` takes every language. `categories` lists the categories of the 500 best-scoring shows in that language, ' +
  'most frequent first; `category` keeps shows having it (case-insensitive). Results are cached for 60 seconds.';

/** Days of activity counted. */
const WINDOW_DAYS = 7;
/** Shows whose categories make up `categories`. */
const CATEGORY_SAMPLE = 500;
/** Popular shows always among the candidates, per filter, so a quiet week is not empty. */
const PRIOR_CANDIDATES = 500;
/**
 * A show of `s` that may trend: alive, browsable (not the requested episodes'
 * holder: its links answer 404), in the language asked for ($3, by prefix).
 */
const LISTED = `NOT s.dead AND s.source <> ALL($6::text[]) AND ($3 = 'all' OR lower(s.language) = $3 OR lower(s.language) LIKE $3 || '-%')`;

export interface TrendingInput {
  /** A directory category name, e.g. `News`. */
  category?: string | null;
  /** 1..100. Default: 24. */
  max?: number | string | null;
  /** Language tag prefix, or `all`. Default: `en`. */
  lang?: string | null;
}

export interface Trending {
  categories: string[];
  shows: ShowSummaryRow[];
}

type Row = { id: bigint; categories: string[]; picked: boolean };

/**
 * Shows that are busy this week. The score, from `TRENDING_DOCS`:
 * `2·ln(1+unlocks) + 2·ln(1+requests) + ln(1+min(new_episodes,7)) + 1.5·pop`
 * over the last 7 days; logarithms so one runaway show does not bury the
 * rest; popularity (log-scaled to 0..1) as the prior.
 */
export async function computeTrending(db: PrismaClient, clock: Clock, input: TrendingInput, query?: ShowQuery): Promise<Trending> {
  const max = listLength(input.max, TRENDING_LIST, 'max');
  const lang = (input.lang?.trim() || TRENDING_DEFAULT_LANG).toLowerCase();
  if (!/^(all|[a-z]{2,3}(-[a-z0-9]{1,8})*)$/.test(lang)) throw invalid('lang', 'must be a language tag such as en or pt-br, or all');
  const category = input.category?.trim() || null;
  if (category && [...category].length > 100) throw invalid('category', 'at most 100 characters');
  const now = clock.now();
  const since = new Date(now.getTime() - WINDOW_DAYS * 86_400_000);
  const rows = await db.$queryRawUnsafe<Row[]>(
    `WITH new_episodes AS (
       SELECT show_id, count(*) AS n FROM episodes WHERE published_at > $1 AND published_at <= $2 GROUP BY show_id),
     unlocked AS (
       SELECT e.show_id, count(*) AS n FROM unlocks u JOIN episodes e ON e.transcript_id = u.transcript_id
       WHERE u.created_at > $1 GROUP BY e.show_id),
     requested AS (
       SELECT e.show_id, count(*) AS n FROM job_episodes je JOIN jobs j ON j.id = je.job_id JOIN episodes e ON e.transcript_id = je.transcript_id
       WHERE j.created_at > $1 GROUP BY e.show_id),
     candidates AS (
       SELECT show_id AS id FROM new_episodes UNION SELECT show_id FROM unlocked UNION SELECT show_id FROM requested
       -- The filters inline, not through a list of every matching id: walking the popularity
       -- index stops at the 500th match instead of visiting every show of the language.
       UNION (SELECT id FROM shows s WHERE ${LISTED} ORDER BY popularity DESC LIMIT ${PRIOR_CANDIDATES})
       -- lower_each(categories) is indexed (GIN): a category no show has costs nothing.
       UNION (SELECT id FROM shows s WHERE $4::text IS NOT NULL AND ${LISTED}
              AND lower_each(s.categories) @> ARRAY[lower($4)] ORDER BY popularity DESC LIMIT ${PRIOR_CANDIDATES})),
     scored AS (
       SELECT s.id, s.categories, s.popularity,
         2 * ln(1 + coalesce(u.n, 0)) + 2 * ln(1 + coalesce(r.n, 0)) + ln(1 + least(coalesce(ne.n, 0), 7))
           + 1.5 * least(1, ln(1 + greatest(s.popularity, 0)) / ln(31)) AS score
       FROM candidates c JOIN shows s ON s.id = c.id AND ${LISTED}
       LEFT JOIN new_episodes ne ON ne.show_id = s.id LEFT JOIN unlocked u ON u.show_id = s.id LEFT JOIN requested r ON r.show_id = s.id)
     (SELECT id, categories, false AS picked FROM scored ORDER BY score DESC, popularity DESC, id LIMIT ${CATEGORY_SAMPLE})
     UNION ALL
     (SELECT id, categories, true FROM scored
      WHERE $4::text IS NULL OR lower_each(categories) @> ARRAY[lower($4)]
      ORDER BY score DESC, popularity DESC, id LIMIT $5)`,
    since,
    now,
    lang,
    category,
    max,
    UNBROWSABLE_SOURCES,
  );
  const counts = new Map<string, number>();
  for (const r of rows) if (!r.picked) for (const c of r.categories) counts.set(c, (counts.get(c) ?? 0) + 1);
  const categories = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([c]) => c);
  const ids = rows.filter((r) => r.picked).map((r) => BigInt(r.id));
  return { categories, shows: await showsInOrder(db, ids, query) };
}
